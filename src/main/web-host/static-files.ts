import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { join, normalize, sep } from 'node:path';
import { contentTypeOf } from '../security/content-types';


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
    'Content-Type': contentTypeOf(file),
    'Content-Length': String(info.size),
    'Cache-Control': relative === 'index.html' ? 'no-store' : 'private, max-age=3600',
  });
  createReadStream(file).pipe(response);
  return true;
}
