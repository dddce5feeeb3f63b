/**
 * The station's data folder holds the webhook secret (in station.db), the print journal, logs and
 * support bundles: on POSIX only the user the station runs as may read them. The folder is 0700,
 * its files 0600, made so when created and checked (and corrected) at every start, because a
 * folder made by an earlier version, a copy or a restore can carry wider modes.
 *
 * Windows has no mode bits: the folder lives in the user's profile (%APPDATA%), whose ACL already
 * gives only that user, SYSTEM and Administrators access, and files inherit it; nothing is changed
 * there (docs/security.md).
 */
import { chmodSync, closeSync, lstatSync, mkdirSync, openSync, readdirSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';

export const PRIVATE_FOLDER_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** One mode the start-up check changed, for the log. */
export interface PermissionFix {
  path: string;
  from: string;
  to: string;
}

const octal = (mode: number) => `0${(mode & 0o777).toString(8)}`;
const isPosix = (platform: NodeJS.Platform) => platform !== 'win32';

/** Sub-folders of the data folder whose files are the station's own (the rest belongs to Electron/Chromium, which keeps its own modes). */
const ownSubfolders = ['logs'];

/**
 * Creates the data folder 0700 if missing, then narrows the folder, its files and the files of
 * the station's own sub-folders to owner-only. Symbolic links are left alone (their target is not
 * the station's to change). Answers what it changed.
 */
export function securePrivateFolder(folder: string, platform: NodeJS.Platform = process.platform): PermissionFix[] {
  mkdirSync(folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  if (!isPosix(platform)) return [];
  const fixes: PermissionFix[] = [];
  const narrow = (path: string, stats: Stats) => {
    const wanted = stats.isDirectory() ? PRIVATE_FOLDER_MODE : PRIVATE_FILE_MODE;
    if ((stats.mode & 0o077) === 0) return;
    chmodSync(path, wanted);
    fixes.push({ path, from: octal(stats.mode), to: octal(wanted) });
  };
  const visit = (dir: string, depth: number) => {
    // The data folder itself may be a link to another disk: its target is what gets narrowed.
    narrow(dir, depth === 0 ? statSync(dir) : lstatSync(dir));
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isFile()) narrow(path, lstatSync(path));
      else if (entry.isDirectory() && depth === 0 && ownSubfolders.includes(entry.name)) visit(path, depth + 1);
    }
  };
  visit(folder, 0);
  return fixes;
}

/**
 * Creates `path` empty with mode 0600 when it does not exist yet, so whatever opens it next (SQLite,
 * which gives its -wal and -shm files the database file's mode) starts owner-only.
 */
export function ensurePrivateFile(path: string): void {
  closeSync(openSync(path, 'a', PRIVATE_FILE_MODE));
}
