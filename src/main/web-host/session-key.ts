/**
 * The key the web host signs its session cookies with, kept in the station's private data folder
 * so the pages a host signed in survive a restart of it: the page that said "the station is not
 * running — restart it" reconnects by itself once it is back. Only the cookie key is kept: the
 * launch token (the printed link) is new at every start, so a link seen once in a terminal or a
 * browser's history stops working when the host stops. A missing or unreadable file gets a fresh
 * key (open pages then need the new link, as before). Deleting the file signs every page out.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PRIVATE_FILE_MODE } from '../store';

const keyPattern = /^[A-Za-z0-9_-]{43}$/;

export function keptSessionKey(dataDir: string): string {
  const file = join(dataDir, 'web-host-session-key');
  try {
    const kept = readFileSync(file, 'utf8').trim();
    if (keyPattern.test(kept)) return kept;
  } catch {
    // None yet: made below.
  }
  const key = randomBytes(32).toString('base64url');
  writeFileSync(file, `${key}\n`, { mode: PRIVATE_FILE_MODE });
  return key;
}
