import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.wasm': 'application/wasm',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};

/** Serves a file of the built renderer; refuses anything that would leave its folder. */
export async function serveStaticFile(root: string, urlPath: string, response: ServerResponse, headers: Record<string, string>): Promise<boolean> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return false;
  }
  if (decoded.includes('\0')) return false;
  const relative = decoded === '/' ? 'index.html' : decoded.replace(/^\/+/, '');
  const file = normalize(join(root, relative));
  if (file !== root && !file.startsWith(root.endsWith(sep) ? root : root + sep)) return false;
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) return false;
  response.writeHead(200, {
    ...headers,
    'Content-Type': contentTypes[extname(file)] ?? 'application/octet-stream',
    'Content-Length': String(info.size),
    'Cache-Control': relative === 'index.html' ? 'no-store' : 'private, max-age=3600',
  });
  createReadStream(file).pipe(response);
  return true;
}
