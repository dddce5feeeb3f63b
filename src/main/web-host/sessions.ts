import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The web host's signed-in pages. Presenting the launch token opens a session with an id of its
 * own, so the token never sits in a cookie (or a browser's cookie store) and a leaked cookie is not
 * the link. Sessions live as long as the host; the oldest is dropped beyond `limit`, so a script
 * trading the token in a loop cannot grow the host's memory.
 */
export interface WebSessions {
  /** A new session id for the cookie. */
  open(): string;
  isValid(id: string | undefined): boolean;
}

export function createWebSessions(options: { limit?: number; randomId?: () => string } = {}): WebSessions {
  const limit = options.limit ?? 64;
  const randomId = options.randomId ?? (() => randomBytes(32).toString('base64url'));
  // A Map keeps insertion order: the first key is the oldest session.
  const sessions = new Map<string, true>();
  return {
    open() {
      const id = randomId();
      sessions.set(id, true);
      while (sessions.size > limit) sessions.delete(sessions.keys().next().value as string);
      return id;
    },
    isValid(id) {
      return id !== undefined && sessions.has(id);
    },
  };
}

/**
 * Sessions that outlive the host process: each id is a random nonce signed with the host's
 * launch token (HMAC-SHA-256), so a web host restarted on the same data folder (which keeps its
 * token) still knows the pages it signed in, and their sockets reconnect by themselves. Nothing
 * is kept in memory, so trading the token in a loop grows nothing.
 */
const signatureLength = 43;

export function createSignedWebSessions(secret: string, options: { randomId?: () => string } = {}): WebSessions {
  const randomId = options.randomId ?? (() => randomBytes(24).toString('base64url'));
  const sign = (nonce: string) => createHmac('sha256', secret).update(`station-session:${nonce}`).digest('base64url');
  return {
    open() {
      const nonce = randomId();
      // Cookie-safe characters only: the signature is the last 43 (SHA-256 in base64url).
      return `${nonce}${sign(nonce)}`;
    },
    isValid(id) {
      if (!id || id.length <= signatureLength) return false;
      const offered = Buffer.from(id.slice(-signatureLength));
      const expected = Buffer.from(sign(id.slice(0, -signatureLength)));
      return offered.length === expected.length && timingSafeEqual(offered, expected);
    },
  };
}
