/**
 * Hands the focus back to the current screen's title once a control that had it is gone (a
 * dialog closed, a banner's button replaced), as opening a screen does (ScreenHeading): scans are
 * captured wherever the focus is except in a text field, so the packer keeps scanning.
 */
export function returnFocusToScreen(document: Document): void {
  const heading = document.querySelector<HTMLElement>('#main h1');
  const active = document.activeElement;
  // Someone already moved on to a field of their own: leave them there.
  if (active instanceof HTMLElement && active !== document.body && active.isConnected && active.closest('#main')) return;
  heading?.focus({ preventScroll: true });
}
