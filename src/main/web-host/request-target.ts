/**
 * The path and query of an HTTP request target, read without trusting it. Node hands over the
 * raw target: `//[::1]:x/` or `//evil.com/` would be read by `new URL(target, base)` as another
 * host (or throw), so the target is only ever taken as a path on this host.
 */
const ORIGIN = 'http://station.invalid';

/** The target as a URL on this host, or null when it is not an origin-form target (`/path?query`). */
export function parseRequestTarget(target: string | undefined): URL | null {
  if (target === undefined || !target.startsWith('/') || target.length > 8192) return null;
  try {
    const url = new URL(`${ORIGIN}${target}`);
    return url.origin === ORIGIN ? url : null;
  } catch {
    return null;
  }
}

/**
 * A path to redirect to that a browser can only read as a path on this host: `//evil.com/` and
 * `/\evil.com` would be another site, so the leading slashes and backslashes collapse to one.
 */
export function sameOriginPath(pathname: string): string {
  return `/${pathname.replace(/^[/\\]+/, '')}`;
}
