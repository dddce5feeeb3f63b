/**
 * The handover lists closing the day wrote (data folder, handover/), offered to the browser as a
 * download: in a kiosk browser a file path on the station's disk opens nothing. Only names closing
 * the day gives its files are served, from that folder only; the caller checks the session first.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { handoverDownloadPath, handoverFileNamePattern } from '../../shared/handover-file';

/** Serves `/handover/<file>` from the folder; false when the path is not a handover list there. */
export async function serveHandover(folder: string, urlPath: string, response: ServerResponse, headers: Record<string, string>): Promise<boolean> {
  if (!urlPath.startsWith(handoverDownloadPath)) return false;
  const name = urlPath.slice(handoverDownloadPath.length);
  if (!handoverFileNamePattern.test(name)) return false;
  const file = join(folder, name);
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) return false;
  response.writeHead(200, {
    ...headers,
    'Content-Type': 'application/pdf',
    'Content-Length': String(info.size),
    'Content-Disposition': `attachment; filename="${name}"`,
    'Cache-Control': 'no-store',
  });
  createReadStream(file).pipe(response);
  return true;
}
