import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The web host's signed-in pages. Presenting the launch token opens a session with an id of its
 * own, so the token never sits in a cookie (or a browser's cookie store) and a leaked cookie is not
 * the link. A session lasts one working day at most (sessionMaxAgeMs): a cookie copied off a
 * kiosk stops working by itself.
 */
export interface WebSessions {
  /** A new session id for the cookie. */
  open(): string;
  isValid(id: string | undefined): boolean;
}

/** Longest a page stays signed in: a long shift, so a kiosk is never signed out mid-shift. */
export const sessionMaxAgeMs = 14 * 60 * 60 * 1000;

/**
 * Sessions that outlive the host process: each id is the time it was opened and a random nonce,
 * signed with the host's session key (HMAC-SHA-256), so a web host restarted on the same data
 * folder (which keeps the key) still knows the pages it signed in, and their sockets reconnect by
 * themselves, until the session is sessionMaxAgeMs old. Nothing is kept in memory, so trading the
 * token in a loop grows nothing.
 */
const signatureLength = 43;

export interface SignedSessionOptions {
  randomId?: () => string;
  clock?: () => number;
  maxAgeMs?: number;
}

export function createSignedWebSessions(secret: string, options: SignedSessionOptions = {}): WebSessions {
  const randomId = options.randomId ?? (() => randomBytes(24).toString('base64url'));
  const clock = options.clock ?? Date.now;
  const maxAgeMs = options.maxAgeMs ?? sessionMaxAgeMs;
  const sign = (nonce: string) => createHmac('sha256', secret).update(`station-session:${nonce}`).digest('base64url');
  return {
    open() {
      // Cookie-safe characters only: the opening time (base 36), '-', the nonce, then the signature (the last 43).
      const nonce = `${clock().toString(36)}-${randomId()}`;
      return `${nonce}${sign(nonce)}`;
    },
    isValid(id) {
      if (!id || id.length <= signatureLength) return false;
      const nonce = id.slice(0, -signatureLength);
      const offered = Buffer.from(id.slice(-signatureLength));
      const expected = Buffer.from(sign(nonce));
      if (offered.length !== expected.length || !timingSafeEqual(offered, expected)) return false;
      const openedAt = parseInt(nonce.split('-')[0] ?? '', 36);
      const age = clock() - openedAt;
      return Number.isFinite(openedAt) && age >= 0 && age <= maxAgeMs;
    },
  };
}
