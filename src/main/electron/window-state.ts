import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';

export interface Rectangle {
  x: number;
  y: number;
  width: number;
  height: number;
}

const WindowStateSchema = z.object({
  x: z.number().int().optional(),
  y: z.number().int().optional(),
  width: z.number().int().min(400).max(20_000),
  height: z.number().int().min(300).max(20_000),
  maximized: z.boolean().default(false),
  fullScreen: z.boolean().default(false),
});
export type WindowState = z.infer<typeof WindowStateSchema>;

export const defaultWindowState: WindowState = { width: 1280, height: 800, maximized: false, fullScreen: false };

/** The remembered window state, or the default when the file is missing, unreadable or invalid. */
export function loadWindowState(file: string): WindowState {
  try {
    const parsed = WindowStateSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data : defaultWindowState;
  } catch {
    return defaultWindowState;
  }
}

/** Writes through a temporary file, so a crash mid-write never leaves half a file behind. */
export function saveWindowState(file: string, state: WindowState): void {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.tmp`;
  writeFileSync(temporary, JSON.stringify(state, null, 2));
  renameSync(temporary, file);
}

/**
 * Puts a remembered window back where it can be seen: if its title bar no longer overlaps any
 * display's work area (a monitor was unplugged, the bench PC got a smaller screen), it is centred
 * on the first display and shrunk to fit.
 */
export function fitToDisplays(state: WindowState, workAreas: readonly Rectangle[]): WindowState {
  const primary = workAreas[0];
  if (!primary) return state;
  const width = Math.min(state.width, primary.width);
  const height = Math.min(state.height, primary.height);
  if (state.x !== undefined && state.y !== undefined) {
    const titleBar: Rectangle = { x: state.x, y: state.y, width: state.width, height: 40 };
    if (workAreas.some((area) => overlap(titleBar, area) >= 40 * 100)) return state;
  }
  return {
    ...state,
    width,
    height,
    x: Math.round(primary.x + (primary.width - width) / 2),
    y: Math.round(primary.y + (primary.height - height) / 2),
  };
}

const overlap = (a: Rectangle, b: Rectangle): number => {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return width > 0 && height > 0 ? width * height : 0;
};

/** What the tracker reads from a window (Electron's BrowserWindow satisfies it). */
export interface TrackedWindow {
  getNormalBounds(): Rectangle;
  isMaximized(): boolean;
  isFullScreen(): boolean;
  isDestroyed(): boolean;
  on(event: 'resize' | 'move' | 'maximize' | 'unmaximize' | 'enter-full-screen' | 'leave-full-screen' | 'close', listener: () => void): unknown;
}

/**
 * Saves the window's state shortly after it stops moving or resizing, and at once when it closes.
 * The normal bounds are saved, so a maximised window comes back maximised over the right size.
 */
export function trackWindowState(window: TrackedWindow, file: string, options: { delayMs?: number } = {}): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const save = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (window.isDestroyed()) return;
    const bounds = window.getNormalBounds();
    try {
      saveWindowState(file, {
        x: Math.round(bounds.x),
        y: Math.round(bounds.y),
        width: Math.max(400, Math.round(bounds.width)),
        height: Math.max(300, Math.round(bounds.height)),
        maximized: window.isMaximized(),
        fullScreen: window.isFullScreen(),
      });
    } catch {
      // Remembering the window is a comfort; failing to is no reason to disturb the packer.
    }
  };
  const later = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(save, options.delayMs ?? 500);
  };
  for (const event of ['resize', 'move', 'maximize', 'unmaximize', 'enter-full-screen', 'leave-full-screen'] as const) window.on(event, later);
  window.on('close', save);
  return () => {
    if (timer) clearTimeout(timer);
    timer = null;
  };
}
