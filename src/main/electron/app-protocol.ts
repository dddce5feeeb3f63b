/**
 * The `app://station/` protocol that serves the built renderer in place of file://. It answers
 * only GET and HEAD for its own host, never serves a file outside its folder (whatever the URL's
 * encoding, dots, backslashes or symlinks), and puts the Content-Security-Policy on every answer.
 * Plain functions over the Fetch API's Request and Response, so they run (and are tested) in Node.
 */
import { readFile, realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { contentTypeOf } from '../security/content-types';

export const APP_SCHEME = 'app';
export const APP_HOST = 'station';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/**
 * Registered before the app is ready. `standard` gives the scheme real origins (so the CSP's
 * 'self' and same-origin rules mean something), `secure` makes it a secure context like https,
 * `supportFetchAPI` lets the page fetch its own WebAssembly. Nothing bypasses the CSP, no service
 * workers, no CORS access from elsewhere.
 */
export const appSchemePrivileges = {
  standard: true,
  secure: true,
  supportFetchAPI: true,
  codeCache: true,
  bypassCSP: false,
  allowServiceWorkers: false,
  corsEnabled: false,
  stream: false,
} as const;


/** True for a URL of the app itself (scheme and host), the only origin the shell trusts. */
export function isAppUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST && parsed.username === '' && parsed.password === '';
  } catch {
    return false;
  }
}

/**
 * The file a URL of the app names inside `root`, or null when the URL is not the app's, its path
 * is malformed, or it would leave the folder. Checks the path's text only; the handler also
 * resolves symlinks before it reads.
 */
export function resolveAppPath(root: string, url: string): string | null {
  if (!isAppUrl(url)) return null;
  const { pathname } = new URL(url);
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  // Encoded separators, backslashes, NULs and dot segments have no business in an asset path.
  if (/[\0\\]/.test(decoded) || decoded.split('/').some((segment) => segment === '..' || segment === '.')) return null;
  const relativePath = decoded === '/' || decoded === '' ? 'index.html' : decoded.replace(/^\/+/, '');
  const absoluteRoot = resolve(root);
  const file = resolve(absoluteRoot, relativePath);
  return isInside(absoluteRoot, file) ? file : null;
}

const isInside = (root: string, file: string): boolean => {
  const path = relative(root, file);
  return path !== '' && !path.startsWith(`..${sep}`) && path !== '..' && !isAbsolute(path);
};

export interface AppProtocolOptions {
  /** The built renderer folder (out/renderer, inside the asar when packaged). */
  root: string;
  /** The Content-Security-Policy header value sent with every answer. */
  contentSecurityPolicy: string;
}

export type AppProtocolHandler = (request: Request) => Promise<Response>;

/** The handler given to `protocol.handle('app', …)`. */
export function createAppProtocolHandler(options: AppProtocolOptions): AppProtocolHandler {
  const securityHeaders = {
    'Content-Security-Policy': options.contentSecurityPolicy,
    'X-Content-Type-Options': 'nosniff',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Referrer-Policy': 'no-referrer',
  };
  const answer = (status: number, text: string) =>
    new Response(text, { status, headers: { ...securityHeaders, 'Content-Type': 'text/plain; charset=utf-8' } });

  let realRoot: Promise<string> | null = null;

  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return answer(405, 'Method not allowed');
    const file = resolveAppPath(options.root, request.url);
    if (!file) return answer(404, 'Not found');
    try {
      realRoot ??= realpath(options.root);
      const [rootPath, filePath] = await Promise.all([realRoot, realpath(file)]);
      if (!isInside(rootPath, filePath)) return answer(404, 'Not found');
      const info = await stat(filePath);
      if (!info.isFile()) return answer(404, 'Not found');
      const body = request.method === 'HEAD' ? null : await readFile(filePath);
      return new Response(body, {
        status: 200,
        headers: {
          ...securityHeaders,
          'Content-Type': contentTypeOf(filePath),
          'Content-Length': String(info.size),
          'Cache-Control': 'no-cache',
        },
      });
    } catch {
      realRoot = null;
      return answer(404, 'Not found');
    }
  };
}
