import { randomBytes } from 'node:crypto';

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
