/**
 * The worker thread a spreadsheet (a manifest, orders to ship, an upload) is parsed in (started by spreadsheet-parser.ts with a heap limit), so
 * a hostile file can exhaust nothing but this thread. It reads the file twice: once to the end to
 * prove it can be read (nothing is imported from a file that cannot), then again, handing rows to
 * the main thread in batches, at most a few of them untaken at any time.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { SheetFileProblem } from './sheet-limits';
import type { ParserMessage, ParserRequest } from './spreadsheet-parser-protocol';
import { readCsv, readXlsx, type SheetItem } from './sheet-readers';
import { bytesAccess, fileAccess, type RandomAccess } from './xlsx-zip';
import { errorText } from '../../shared/error-text';

const request = workerData as ParserRequest;
const port = parentPort;
/** Batches sent and not yet taken by the main thread; the worker reads on only below the window. */
let inFlight = 0;
let resume: (() => void) | null = null;
port?.on('message', () => {
  inFlight -= 1;
  const next = resume;
  resume = null;
  next?.();
});
const post = (message: ParserMessage) => port?.postMessage(message);

function counted(access: RandomAccess, counter: { bytes: number }): RandomAccess {
  return {
    size: access.size,
    async read(position, length) {
      const chunk = await access.read(position, length);
      counter.bytes += chunk.length;
      return chunk;
    },
    close: () => access.close(),
  };
}

async function run(): Promise<void> {
  const source = request.source.kind === 'path' ? await fileAccess(request.source.path) : bytesAccess(request.source.bytes);
  try {
    // SheetJS is large: loaded only for an .xls, so the other formats keep the worker's whole heap.
    const readXls = request.format === 'xls' ? (await import('./xls-reader')).readXls : null;
    const read = (access: RandomAccess): AsyncGenerator<SheetItem> =>
      request.format === 'csv' ? readCsv(access, request.limits) : readXls ? readXls(access, request.limits) : readXlsx(access, request.limits);
    let rows = 0;
    for await (const item of read(source)) if (item.kind === 'row') rows += 1;
    post({ type: 'checked', rows });

    const counter = { bytes: 0 };
    let batch: SheetItem[] = [];
    const send = async () => {
      post({ type: 'items', items: batch, bytesRead: Math.min(counter.bytes, source.size) });
      inFlight += 1;
      batch = [];
      while (inFlight >= request.window) await new Promise<void>((resolve) => (resume = resolve));
    };
    for await (const item of read(counted(source, counter))) {
      batch.push(item);
      if (batch.length >= request.batchSize) await send();
    }
    if (batch.length > 0) await send();
    post({ type: 'end' });
  } finally {
    await source.close();
  }
}

run().catch((error: unknown) => {
  if (error instanceof SheetFileProblem) post({ type: 'problem', message: error.message });
  else post({ type: 'failed', message: errorText(error).slice(0, 300) });
});
