/** What bringing a window to the front needs (Electron's BrowserWindow satisfies it). */
export interface FocusableWindow {
  isDestroyed(): boolean;
  isMinimized(): boolean;
  restore(): void;
  show(): void;
  focus(): void;
}

/** A second launch (a double-click on the desktop icon) brings the running station to the front. */
export function bringToFront(window: FocusableWindow | null): boolean {
  if (!window || window.isDestroyed()) return false;
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
  return true;
}
