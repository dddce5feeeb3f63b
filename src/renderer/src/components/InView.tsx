import { useEffect, useRef, type ReactNode } from 'react';

/**
 * What an action came to, brought into view whenever it appears or changes: a result drawn below
 * the fold (under a long form's buttons, under a table scrolled far down) is one the lead never
 * sees. `block` says where it comes to rest: `nearest` moves the screen only as far as needed, and
 * the area's scroll margin keeps a little room around it (without it a result whose edge falls
 * between two pixels could rest a fraction of a line below the fold).
 */
export function InView({
  children,
  block = 'nearest',
  className,
  live,
  showOn,
}: {
  children: ReactNode;
  block?: ScrollLogicalPosition;
  className?: string;
  live?: 'polite';
  /**
   * When given, the area comes into view only when this changes (a new step of the action), not
   * at every change of its text: a running count must not pull back a lead who scrolled away.
   */
  showOn?: string;
}) {
  const area = useRef<HTMLDivElement>(null);
  const keyed = showOn !== undefined;
  useEffect(() => {
    const element = area.current;
    if (!element) return;
    const show = () => {
      if (element.childElementCount > 0) element.scrollIntoView({ block, inline: 'nearest' });
    };
    show();
    if (keyed) return;
    const observer = new MutationObserver(show);
    observer.observe(element, { childList: true, subtree: true, characterData: true });
    return () => observer.disconnect();
  }, [block, keyed, showOn]);
  return (
    <div ref={area} className={className ? `in-view ${className}` : 'in-view'} aria-live={live}>
      {children}
    </div>
  );
}
