/**
 * The station's keyboard map, in one place so the screen, the help line and the docs agree.
 * Function keys first: they never occur in a barcode, need no modifier held with gloves on, and
 * are the same in every language. Alt+digit is the same set for keyboards without F-keys.
 */

export const screenIds = ['scan', 'shift', 'printers', 'setup', 'history', 'floor'] as const;
export type ScreenId = (typeof screenIds)[number];

export type ShortcutCommand =
  | { type: 'navigate'; screen: ScreenId }
  | { type: 'reprint-recent'; index: number }
  | { type: 'preview-recent'; index: number }
  | { type: 'dismiss' };

export interface ShortcutKey {
  key: string;
  ctrlKey: boolean;
  altKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
}

/**
 * F-key of each screen, in nav order. The lead's Floor has none free: F6–F9 reprint the recent
 * labels, F10 opens the desktop app's menu bar on Windows and Linux, F11 is full screen and F12
 * the developer tools. It opens with Alt+6, like every screen with Alt and its place in the bar.
 */
export const screenKeys: Record<ScreenId, string | null> = {
  scan: 'F1',
  shift: 'F2',
  printers: 'F3',
  setup: 'F4',
  history: 'F5',
  floor: null,
};

/** The key a screen's button shows: its F-key, or Alt and its place in the bar. */
export const screenKeyHint = (screen: ScreenId): string => screenKeys[screen] ?? `Alt+${screenIds.indexOf(screen) + 1}`;

/** Recent labels on the scan screen, reprinted with one key each; with Shift, previewed. */
export const recentReprintKeys = ['F6', 'F7', 'F8', 'F9'] as const;

export function shortcutFor(event: ShortcutKey): ShortcutCommand | null {
  if (event.ctrlKey || event.metaKey) return null;
  if (event.altKey) {
    if (event.shiftKey) return null;
    const index = ['1', '2', '3', '4', '5', '6'].indexOf(event.key);
    const screen = screenIds[index];
    return screen ? { type: 'navigate', screen } : null;
  }
  const recent = recentReprintKeys.indexOf(event.key as (typeof recentReprintKeys)[number]);
  if (event.shiftKey) return recent >= 0 ? { type: 'preview-recent', index: recent } : null;
  if (event.key === 'Escape') return { type: 'dismiss' };
  const screen = screenIds.find((id) => screenKeys[id] === event.key);
  if (screen) return { type: 'navigate', screen };
  if (recent >= 0) return { type: 'reprint-recent', index: recent };
  return null;
}
