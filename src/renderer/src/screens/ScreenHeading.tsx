import type { ReactNode } from 'react';

/** Each screen's title; it takes the focus when the screen opens, so keyboard and reader users know where they are. */
export function ScreenHeading({ children }: { children: ReactNode }) {
  return (
    <h1 className="screen-title" tabIndex={-1} data-screen-heading>
      {children}
    </h1>
  );
}
