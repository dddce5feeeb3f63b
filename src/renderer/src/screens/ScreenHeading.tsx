import { useEffect, useRef, type ReactNode } from 'react';

/**
 * Each screen's title. It takes the focus when the screen opens, so keyboard and screen-reader
 * users know where they are, and no control of the previous screen keeps it.
 */
export function ScreenHeading({ children, hidden = false }: { children: ReactNode; hidden?: boolean }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus({ preventScroll: true }), []);
  return (
    <h1 ref={heading} className={hidden ? 'visually-hidden' : 'screen-title'} tabIndex={-1}>
      {children}
    </h1>
  );
}
