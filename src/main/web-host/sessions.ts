import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The web host's signed-in pages. Presenting the launch token opens a session with an id of its
 * own, so the token never sits in a cookie (or a browser's cookie store) and a leaked cookie is not
 * the link.
 */
export interface WebSessions {
  /** A new session id for the cookie. */
  open(): string;
  isValid(id: string | undefined): boolean;
}

/**
 * Sessions that outlive the host process: each id is a random nonce signed with the host's
 * session key (HMAC-SHA-256), so a web host restarted on the same data folder (which keeps the
 * key) still knows the pages it signed in, and their sockets reconnect by themselves. Nothing is
 * kept in memory, so trading the token in a loop grows nothing.
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
