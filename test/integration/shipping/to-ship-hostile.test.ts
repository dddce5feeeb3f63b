/**
 * The to-ship import against files and callers that mean harm or make mistakes, through the
 * station's contract: a path from the screen is refused on the web host whatever it names (no
 * file is read, no existence is told); a file with one unreadable record is refused whole, naming
 * the line, with nothing stored; a large file is parsed in the bounded worker and written in
 * batches while scans keep being answered; refs that differ only by invisible characters or case
 * are one ref.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CallOutput } from '../../../src/shared/contract';
import { createTestStation, type TestStation } from '../../support/station';
import { openWebHost } from '../imports/web-host-client';

const header = 'orderRef,locationId,deliveryStreet,deliveryNumber,deliveryPostalCode,deliveryCity,deliveryCountry,deliveryName';
const row = (ref: string, name = 'Anna de Vries') => `${ref},1101,Damrak,1,1012 LG,Amsterdam,NL,${name}`;
const manyRows = (count: number, prefix: string) => Array.from({ length: count }, (_, index) => row(`${prefix}-${index + 1}`));

let test: TestStation;
const dispatch = (name: string, input: unknown) => test.station.dispatcher.dispatch(name, input, { host: 'web' });
const picked = (path: string) => ({ source: { kind: 'picked', handle: test.station.services.pickedFiles.register(path) } });
const storedRows = async () => (test.station.services.db.prepare('SELECT COUNT(*) AS count FROM to_ship_orders').get() as { count: number }).count;

beforeEach(async () => {
  test = await createTestStation();
  await dispatch('settings.set', { environment: 'test' });
});
afterEach(async () => {
  await test.dispose();
});

describe('a path from the screen', () => {
  it('is refused on the web host for any file, existing or not, device or not, and nothing of it is read or told', async () => {
    const secret = join(test.dataDir, 'secret.csv');
    const marker = 'SECRET-LINE-4411';
    writeFileSync(secret, `${header}\n${row(marker)}\n`);
    const web = await openWebHost(test.station);
    try {
      const answers: unknown[] = [];
      for (const path of [secret, '/dev/zero', join(test.dataDir, 'no-such-file.csv'), 'relative.csv']) {
        const started = performance.now();
        const result = await web.request('shipping.import', { source: { kind: 'path', path } });
        expect(performance.now() - started).toBeLessThan(2_000);
        expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
        expect(result.error?.details?.join(' ')).toContain('does not read a file the screen names by its path');
        answers.push({ ...result.error, message: undefined });
      }
      // The same answer for every path: whether a file exists is not told.
      expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
      expect(web.received.join('\n')).not.toContain(marker);
      expect(await web.request('shipping.toShip', { orderRef: marker })).toEqual({ ok: true, value: null });
    } finally {
      await web.close();
    }
  });
});

describe('a file that cannot be read whole', () => {
  it('is refused naming the line of the bad record, and not one of its good rows is stored', async () => {
    const file = join(test.dataDir, 'mostly-good.csv');
    // 20,000 good rows, then one 70 KB record (beyond the 64 KiB a record may have).
    writeFileSync(file, [header, ...manyRows(20_000, 'GOOD'), row('HUGE', 'x'.repeat(70 * 1024))].join('\n'));
    const result = await dispatch('shipping.import', picked(file));
    expect(result).toMatchObject({ ok: false, error: { code: 'IMPORT_FAILED' } });
    expect(result.ok ? '' : result.error.message).toMatch(/line 20002\b/);
    expect(await storedRows()).toBe(0);
    expect(await dispatch('shipping.toShip', { orderRef: 'GOOD-1' })).toEqual({ ok: true, value: null });
  });
});

describe('a large file', () => {
  it('is imported in batches while scans keep being answered within 100 ms of when they were due', async () => {
    const file = join(test.dataDir, 'large.csv');
    writeFileSync(file, [header, ...manyRows(30_000, 'BIG')].join('\n'));
    const importing = dispatch('shipping.import', picked(file));
    let done = false;
    void importing.finally(() => (done = true));
    const waits: number[] = [];
    // A scan 25 ms after the last answer: each wait counts from when the scan was due, so a station
    // too busy to even take the scan (its event loop held) counts too.
    while (!done) {
      const due = performance.now() + 25;
      // Time is the input: the scanner's pace.
      await new Promise((resolve) => setTimeout(resolve, 25));
      await dispatch('orders.lookup', { scan: 'NOT-AN-ORDER', remote: false });
      waits.push(performance.now() - due);
    }
    const result = await importing;
    expect(result).toMatchObject({ ok: true, value: { newRows: 30_000, rejectedRows: 0 } });
    expect(await storedRows()).toBe(30_000);
    waits.sort((a, b) => a - b);
    // Before: one transaction per row in the main process, never letting go of the event loop: 7
    // scans answered in 159 s, 22 s apart. Now the import lets go every 100 rows.
    expect(waits.length).toBeGreaterThan(50);
    expect(waits[Math.floor(waits.length * 0.95)]).toBeLessThanOrEqual(100);
    expect(waits.at(-1)).toBeLessThanOrEqual(1_000);
  }, 120_000);
});

describe('refs that look alike', () => {
  it('takes a ref once: the same ref with a zero-width space, a word joiner or in other case is refused with the reason', async () => {
    const file = join(test.dataDir, 'look-alikes.csv');
    writeFileSync(file, [header, row('NW-500'), row('NW\u200B-500'), row('NW-500\u2060'), row('nw-500'), row('NW-501')].join('\n'));
    const result = await dispatch('shipping.import', picked(file));
    expect(result.ok).toBe(true);
    const report = (result as { value: CallOutput<'shipping.import'> }).value;
    expect(report).toMatchObject({ newRows: 2, rejectedRows: 3 });
    expect(report.rows.map((entry) => [entry.row, entry.outcome])).toEqual([
      [2, 'new'],
      [3, 'rejected'],
      [4, 'rejected'],
      [5, 'rejected'],
      [6, 'new'],
    ]);
    expect(report.rows[1]!.reason).toContain('invisible character (U+200B)');
    expect(report.rows[2]!.reason).toContain('invisible character (U+2060)');
    expect(report.rows[3]!.reason).toBe('orderRef nw-500 is already on row 2 of this file');
    expect(await storedRows()).toBe(2);
  });
});
