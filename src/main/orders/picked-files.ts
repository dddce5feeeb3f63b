/**
 * Files the main process itself chose (the desktop app's file dialog, or a path typed at the CLI),
 * each behind an opaque handle. The screen never names a path: it can only hand back a handle the
 * main process gave it, once, for a short while. A handle that was never given, was used already
 * or is too old opens nothing.
 */
import { randomBytes } from 'node:crypto';

export interface PickedFiles {
  /** A new single-use handle for a path the main process chose. */
  register(path: string): string;
  /** The path behind a handle, consuming it; null when the handle is unknown, used or expired. */
  take(handle: string): string | null;
}

export interface PickedFilesOptions {
  clock?: () => number;
  /** How long a handle stays usable after the dialog closed. */
  ttlMs?: number;
  /** Most handles held at once (the oldest go first). */
  maxHeld?: number;
}

export function createPickedFiles(options: PickedFilesOptions = {}): PickedFiles {
  const clock = options.clock ?? Date.now;
  const ttlMs = options.ttlMs ?? 10 * 60_000;
  const maxHeld = options.maxHeld ?? 16;
  const held = new Map<string, { path: string; pickedAt: number }>();

  return {
    register(path) {
      const handle = randomBytes(32).toString('base64url');
      held.set(handle, { path, pickedAt: clock() });
      while (held.size > maxHeld) {
        const oldest = held.keys().next().value;
        if (oldest === undefined) break;
        held.delete(oldest);
      }
      return handle;
    },
    take(handle) {
      const entry = held.get(handle);
      if (!entry) return null;
      held.delete(handle);
      return clock() - entry.pickedAt > ttlMs ? null : entry.path;
    },
  };
}
