import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createManifestImporter } from '../../../src/main/orders/manifest-import';
import { defaultSheetLimits } from '../../../src/main/spreadsheets/sheet-limits';
import { createLogger } from '../../../src/main/logging/logger';
import { createTestStation, type TestStation } from '../../support/station';
import { sharedStringsBomb } from './hostile-xlsx';
import { openWebHost } from './web-host-client';
import { childScript } from '../../support/child-scripts';

let test: TestStation;
const call = (name: string, input: unknown) => test.station.dispatcher.dispatch(name, input, { host: 'web' });
const csv = (lines: string[]) => `${lines.join('\r\n')}\r\n`;
const content = (fileName: string, text: string | Buffer) => ({ kind: 'content', fileName, base64: Buffer.from(text).toString('base64') });

beforeEach(async () => {
  test = await createTestStation();
  await call('settings.set', { environment: 'test' });
});
afterEach(async () => {
  await test.dispose();
});

describe('a hostile workbook fails only its own import', () => {
  it('refuses a 4.7 MB shared-strings bomb (12 strings of 400 MB) over the web host, says what is wrong, and the station keeps answering', async () => {
    expect(await call('imports.manifest', { source: content('before.csv', csv(['orderId,orderRef', 'ORD-1,REF-1'])) })).toMatchObject({ ok: true });
    const bomb = sharedStringsBomb({ strings: 12, stringChars: 400_000_000 });
    expect(bomb.length).toBeLessThan(5 * 1024 * 1024);
    const web = await openWebHost(test.station);
    try {
      const started = performance.now();
      const result = await web.request('imports.manifest', { source: content('today.xlsx', bomb) });
      expect(result).toMatchObject({ ok: false, error: { code: 'IMPORT_FAILED', message: expect.stringMatching(/^today\.xlsx was not imported: the file's shared text .*32 KiB/) } });
      // Bounded: stopped at the first oversized string, not after inflating gigabytes.
      expect(performance.now() - started).toBeLessThan(20_000);
      expect(await web.request('app.info', {})).toMatchObject({ ok: true, value: { name: 'Packing Station' } });
      expect(await web.request('orders.count', {})).toEqual({ ok: true, value: { environment: 'test', orders: 1 } });
      expect(await web.request('imports.recent', {})).toMatchObject({ ok: true, value: [{ fileName: 'today.xlsx', state: 'failed', inserted: 0 }, { fileName: 'before.csv', state: 'finished' }] });
    } finally {
      await web.close();
    }
  });

  it('fails on shared text larger in total than its bound, each string within the cell bound', async () => {
    const bomb = sharedStringsBomb({ strings: 1200, stringChars: 30_000 });
    const result = await call('imports.manifest', { source: content('many.xlsx', bomb) });
    expect(result).toMatchObject({ ok: false, error: { code: 'IMPORT_FAILED', message: expect.stringContaining("the file's shared text is larger than 32 MiB") } });
  });

  it('stops inflating a part past its bound, whatever the zip claimed', async () => {
    // Cells within the bounds, but the shared text part unpacks past the per-part limit.
    const bomb = sharedStringsBomb({ strings: 3000, stringChars: 30_000 });
    const importer = createManifestImporter({
      engine: test.station.services.store,
      index: test.station.services.orders,
      logger: createLogger(() => undefined),
      limits: { ...defaultSheetLimits, maxSharedTextChars: 1e12, maxPartBytes: 16 * 1024 * 1024 },
    });
    await expect(importer.import('test', { kind: 'bytes', fileName: 'parts.xlsx', bytes: bomb })).rejects.toMatchObject({
      code: 'IMPORT_FAILED',
      message: expect.stringContaining("the file's shared text unpacks to more than 16 MiB"),
    });
  });

  it('when a file gets past every bound, the reader runs out of its own memory and only the import fails', async () => {
    const bomb = sharedStringsBomb({ strings: 12, stringChars: 40_000_000 });
    const unbounded = 1e12;
    const importer = createManifestImporter({
      engine: test.station.services.store,
      index: test.station.services.orders,
      logger: createLogger(() => undefined),
      limits: { ...defaultSheetLimits, maxCellChars: unbounded, maxSharedTextChars: unbounded, maxPartBytes: unbounded, maxInflatedBytes: unbounded },
      parserHeapMb: 96,
    });
    await expect(importer.import('test', { kind: 'bytes', fileName: 'bomb.xlsx', bytes: bomb })).rejects.toMatchObject({
      code: 'IMPORT_FAILED',
      message: expect.stringContaining('needed more memory than an import may use (96 MiB)'),
    });
    expect(await call('app.info', {})).toMatchObject({ ok: true });
    expect(await call('imports.manifest', { source: content('after.csv', csv(['orderId', 'ORD-2'])) })).toMatchObject({ ok: true, value: { inserted: 1 } });
  });
});

describe('an import cut short by a crash', () => {

  it('is marked interrupted at the next start, with the rows written before the crash, not left running', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'station-crash-'));
    const file = join(dataDir, 'big.csv');
    const out = createWriteStream(file);
    out.write('orderId,orderRef,barcode\n');
    for (let n = 1; n <= 400_000; n += 1) out.write(`ORD-${n},REF-${n},BC-${n}\n`);
    out.end();
    await once(out, 'finish');
    // The CLI as a user runs it, killed (as a crash would) once it has written its first rows.
    const child = spawn(process.execPath, [childScript('src/main/cli/index.ts'), '--data-dir', dataDir, 'settings', 'set', '--env', 'test']);
    await once(child, 'exit');
    const importer = spawn(process.execPath, [childScript('src/main/cli/index.ts'), '--data-dir', dataDir, 'import', file]);
    let stderr = '';
    const wroteRows = new Promise<void>((resolve, reject) => {
      importer.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        // Rows go in 2,000 to a transaction: past 10,000 read, several batches are in the index.
        const read = [...stderr.matchAll(/Read ([\d,]+) rows/g)].map((match) => Number(match[1]?.replace(/,/g, '')));
        if (read.some((rows) => rows >= 10_000)) resolve();
      });
      importer.on('exit', (code) => reject(new Error(`the import ended by itself (exit ${code}) before it could be killed: ${stderr}`)));
    });
    await wroteRows;
    importer.kill('SIGKILL');
    await once(importer, 'exit');

    const { composeStation } = await import('../../../src/main/composition');
    const { memoryKeyStore } = await import('../../support/station');
    const again = await composeStation({ dataDir, host: 'web', version: '0', logger: createLogger(() => undefined), keyStore: memoryKeyStore() });
    try {
      const recent = await again.dispatcher.dispatch('imports.recent', {}, { host: 'web' });
      expect(recent).toMatchObject({ ok: true, value: [{ fileName: 'big.csv', state: 'interrupted', message: expect.stringContaining('stopped while this import ran'), finishedAt: expect.any(String) }] });
      const count = await again.dispatcher.dispatch('orders.count', {}, { host: 'web' });
      expect(count).toMatchObject({ ok: true });
      if (count.ok) {
        const orders = (count.value as { orders: number }).orders;
        expect(orders).toBeGreaterThan(0);
        expect(orders).toBeLessThan(400_000);
      }
    } finally {
      await again.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
