import { createWriteStream, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCliIn } from '../../support/cli';
import { createTestStation, memoryKeyStore, type TestStation } from '../../support/station';

let test: TestStation;
const call = (name: string, input: unknown) => test.station.dispatcher.dispatch(name, input, { host: 'web' });

beforeEach(async () => {
  test = await createTestStation();
  await call('settings.set', { environment: 'test' });
});
afterEach(async () => {
  await test.dispose();
});

/** The CLI in this process on the test station's data folder (closed first: one station per folder). */
async function cliImport(file: string) {
  await test.station.close();
  const outcome = await runCliIn(test.dataDir, { keyStore: memoryKeyStore() }, ['import', file]);
  const { composeStation } = await import('../../../src/main/composition');
  const { createLogger } = await import('../../../src/main/logging/logger');
  test.station = await composeStation({ dataDir: test.dataDir, host: 'web', version: '0', logger: createLogger(() => undefined), keyStore: memoryKeyStore() });
  return outcome;
}

async function seedIndex(): Promise<void> {
  const seed = ['orderId,orderRef,barcode,status', 'ORD-1,REF-OLD-1,BC-OLD-1,draft', 'ORD-2,REF-OLD-2,BC-OLD-2,expected'].join('\n');
  const result = await call('imports.manifest', { source: { kind: 'content', fileName: 'seed.csv', base64: Buffer.from(seed).toString('base64') } });
  expect(result).toMatchObject({ ok: true, value: { inserted: 2 } });
}

async function expectIndexUnchanged(): Promise<void> {
  expect(await call('orders.count', {})).toEqual({ ok: true, value: { environment: 'test', orders: 2 } });
  expect(await call('orders.lookup', { scan: 'ORD-1', remote: false })).toMatchObject({ ok: true, value: { order: { orderRef: 'REF-OLD-1', barcode: 'BC-OLD-1', status: 'draft' } } });
  expect(await call('orders.lookup', { scan: 'ORD-2', remote: false })).toMatchObject({ ok: true, value: { order: { orderRef: 'REF-OLD-2', status: 'expected' } } });
}

describe('a CSV file that cannot be read to the end', () => {
  it('fails as a whole at the line of an unbalanced quote (line 2 of 10,001 rows): exit 1, nothing imported, the index unchanged', async () => {
    await seedIndex();
    const file = join(test.dataDir, 'quote.csv');
    const lines = ['orderId,orderRef,barcode,status'];
    lines.push('ORD-1,"REF-NEW-1,BC-NEW-1,in_transit');
    for (let n = 2; n <= 10_001; n += 1) lines.push(`ORD-${n},REF-NEW-${n},BC-NEW-${n},in_transit`);
    writeFileSync(file, `${lines.join('\n')}\n`);

    const outcome = await cliImport(file);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain('quote.csv was not imported: line 2 is longer than 64 KiB (no order needs that much; often a quote opens a cell there and is never closed). Nothing from it was imported');
    expect(outcome.stderr).toContain('[IMPORT_FAILED]');
    expect(outcome.stdout).not.toMatch(/rows read/);
    await expectIndexUnchanged();
    expect(await call('orders.lookup', { scan: 'BC-NEW-5000', remote: false })).toMatchObject({ ok: false, error: { code: 'ORDER_NOT_FOUND' } });
    expect(await call('imports.recent', { limit: 1 })).toMatchObject({ ok: true, value: [{ fileName: 'quote.csv', state: 'failed', inserted: 0, updated: 0 }] });
  });

  it('names the line a never-closed quote starts on, counting quoted cells that span lines', async () => {
    await seedIndex();
    const text = ['orderId,orderRef,recipient', 'ORD-10,REF-10,"Anna', 'de Vries"', 'ORD-11,REF-11,Bram', 'ORD-12,REF-12,"Cas'].join('\n');
    const result = await call('imports.manifest', { source: { kind: 'content', fileName: 'short.csv', base64: Buffer.from(text).toString('base64') } });
    expect(result).toMatchObject({ ok: false, error: { code: 'IMPORT_FAILED', message: expect.stringContaining('short.csv was not imported: line 5: a quoted cell starts there and is never closed') } });
    await expectIndexUnchanged();
  });

  it('fails at a 200 MB line with its line number, without reading on, and loses no row silently', async () => {
    await seedIndex();
    const file = join(test.dataDir, 'long-line.csv');
    const out = createWriteStream(file);
    out.write('orderId,orderRef\nORD-20,REF-20\nORD-21,');
    const block = 'x'.repeat(1024 * 1024);
    for (let n = 0; n < 200; n += 1) if (!out.write(block)) await once(out, 'drain');
    out.write('\nORD-22,REF-22\n');
    out.end();
    await once(out, 'finish');

    const started = performance.now();
    const result = await call('imports.manifest', { source: { kind: 'picked', handle: test.station.services.pickedFiles.register(file) } });
    expect(result).toMatchObject({ ok: false, error: { code: 'IMPORT_FAILED', message: expect.stringContaining('long-line.csv was not imported: line 3 is longer than 64 KiB') } });
    // The reader stops at the bound: it does not read (or build) the 200 MB line.
    expect(performance.now() - started).toBeLessThan(10_000);
    await expectIndexUnchanged();
    expect(await call('orders.lookup', { scan: 'ORD-20', remote: false })).toMatchObject({ ok: false, error: { code: 'ORDER_NOT_FOUND' } });
  });

  it('still imports a sound file with the good rows kept and the bad rows reported by line', async () => {
    const text = ['orderId,orderRef,recipient', 'ORD-30,REF-30,"Anna', 'de Vries"', ',REF-31,Bram', '', 'ORD-32,REF-32,"Cas ""the box"" Jansen"'].join('\n');
    const result = await call('imports.manifest', { source: { kind: 'content', fileName: 'sound.csv', base64: Buffer.from(text).toString('base64') } });
    expect(result).toMatchObject({ ok: true, value: { rowsRead: 3, inserted: 2, failed: 1, errors: [{ row: 4, message: 'orderId is empty' }] } });
    expect(await call('orders.lookup', { scan: 'REF-32', remote: false })).toMatchObject({ ok: true, value: { order: { recipient: 'Cas "the box" Jansen' } } });
    expect(await call('orders.lookup', { scan: 'REF-30', remote: false })).toMatchObject({ ok: true, value: { order: { recipient: 'Anna de Vries' } } });
  });
});
