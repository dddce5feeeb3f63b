/**
 * The web host's launch token, kept in the station's private data folder so the bench's link and
 * its open pages survive a restart of the host: the page that said "the station is not running —
 * restart it" reconnects by itself once it is back. A missing or unreadable file gets a fresh
 * token (the old link and pages then need the new link, as before).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const tokenPattern = /^[A-Za-z0-9_-]{43}$/;

export function keptWebHostToken(dataDir: string): string {
  const file = join(dataDir, 'web-host-token');
  try {
    const kept = readFileSync(file, 'utf8').trim();
    if (tokenPattern.test(kept)) return kept;
  } catch {
    // None yet: made below.
  }
  const token = randomBytes(32).toString('base64url');
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return token;
}
