/**
 * Runs the manifest parser in a worker thread with a heap limit: a file built to exhaust memory
 * (a shared-strings bomb) can only kill that worker, and the import fails with what was wrong
 * with the file while the station carries on. The main thread takes rows in batches of 1,000; the
 * worker stops reading while four are untaken, so rows never pile up in the main thread's memory.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { defaultSheetLimits, SheetFileProblem, sheetParserHeapMb, type SheetLimits } from './sheet-limits';
import type { ParserMessage, ParserRequest, ParserSource } from './spreadsheet-parser-protocol';
import type { SheetItem } from './sheet-readers';
import type { SheetFormat } from './spreadsheet-format';

export interface ParserOptions {
  limits?: SheetLimits;
  heapMb?: number;
  batchSize?: number;
  /** Called once the whole file has been read without a problem, before any row is handed on. */
  onChecked?(rows: number): void;
}

export interface ParsedBatch {
  items: SheetItem[];
  bytesRead: number;
}

export async function* parseSpreadsheet(source: ParserSource, format: SheetFormat | 'xls', options: ParserOptions = {}): AsyncGenerator<ParsedBatch> {
  const heapMb = options.heapMb ?? sheetParserHeapMb;
  const request: ParserRequest = { source, format, limits: options.limits ?? defaultSheetLimits, batchSize: options.batchSize ?? 1000, window: 4 };
  const worker = startWorker(request, {
    resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
    stdout: false,
    stderr: false,
  });
  const inbox: ParserMessage[] = [];
  let wake: (() => void) | null = null;
  let stopped: Error | null = null;
  const notify = () => {
    const resume = wake;
    wake = null;
    resume?.();
  };
  worker.on('message', (message: ParserMessage) => {
    inbox.push(message);
    notify();
  });
  worker.on('error', (error: Error & { code?: string }) => {
    stopped =
      error.code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? new SheetFileProblem(`reading it needed more memory than an import may use (${heapMb} MiB); the file is built to be far larger inside than it looks`)
        : new Error(`the file reader stopped: ${error.message.slice(0, 200)}`);
    notify();
  });
  worker.on('exit', (code) => {
    stopped ??= new Error(`the file reader stopped unexpectedly (exit code ${code})`);
    notify();
  });

  try {
    for (;;) {
      const message = inbox.shift();
      if (!message) {
        if (stopped) throw stopped;
        await new Promise<void>((resolve) => (wake = resolve));
        continue;
      }
      if (message.type === 'checked') options.onChecked?.(message.rows);
      else if (message.type === 'items') {
        yield { items: message.items, bytesRead: message.bytesRead };
        worker.postMessage('taken');
      } else if (message.type === 'end') return;
      else if (message.type === 'problem') throw new SheetFileProblem(message.message);
      else throw new Error(message.message);
    }
  } finally {
    await worker.terminate();
  }
}

/**
 * The bundled app runs the worker's own bundle (out/main/spreadsheet-parser.js); from sources (tests,
 * the dev CLI) the TypeScript file runs through tsx, a dev dependency never loaded in the app.
 */
function startWorker(request: ParserRequest, options: WorkerOptions): Worker {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    const source = new URL('./spreadsheet-parser-worker.ts', here).href;
    const tsx = pathToFileURL(createRequire(here).resolve('tsx/esm/api').replace(/index\.cjs$/, 'index.mjs')).href;
    const bootstrap = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(source)}); })`;
    return new Worker(bootstrap, { ...options, eval: true, workerData: request });
  }
  const bundled = ['./spreadsheet-parser.js', '../spreadsheet-parser.js'].map((relative) => new URL(relative, here)).find((url) => existsSync(fileURLToPath(url)));
  if (!bundled) throw new Error('the spreadsheet reader (spreadsheet-parser.js) is missing from this build');
  return new Worker(bundled, { ...options, workerData: request });
}
