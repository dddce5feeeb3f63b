/**
 * Two benches of a warehouse on one shared PostgreSQL store, each a whole station (its own data
 * folder, its own engine on the store), through the contract as the screen calls it: a manifest
 * imported at one bench is scanned at the other, without the second importing it (issue 16: "each
 * bench must import the manifest itself"), and both importing the same manifest at once end with
 * each order once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { composeStation, type Station } from '../../../src/main/composition';
import { createLogger } from '../../../src/main/logging/logger';
import { PostgresEngine } from '../../../src/main/store/engine/postgres-engine';
import type { CallName, CallOutput } from '../../../src/shared/contract';
import { createTestDatabase, type TestDatabase } from '../../support/postgres-server';
import { memoryKeyStore } from '../../support/station';
import { postgresConfig } from '../store-engine/engines';

interface Bench {
  dataDir: string;
  engine: PostgresEngine;
  station: Station;
}

const manifest = (fileName: string, lines: string[]) => ({ kind: 'content', fileName, base64: Buffer.from(`${lines.join('\n')}\n`).toString('base64') });

describe('two benches, one order index on the shared store', () => {
  let database: TestDatabase;
  const benches: Bench[] = [];

  const launch = async (): Promise<Bench> => {
    const dataDir = mkdtempSync(join(tmpdir(), 'station-bench-'));
    const engine = await PostgresEngine.open(postgresConfig(database.info));
    const station = await composeStation({ dataDir, host: 'web', version: '0.0.0-test', logger: createLogger(() => undefined), keyStore: memoryKeyStore(), store: engine });
    const bench = { dataDir, engine, station };
    benches.push(bench);
    await call(bench, 'settings.set', { environment: 'test' });
    return bench;
  };
  const attempt = (bench: Bench, name: CallName, input: unknown) => bench.station.dispatcher.dispatch(name, input, { host: 'web' });
  const call = async <K extends CallName>(bench: Bench, name: K, input: unknown): Promise<CallOutput<K>> => {
    const result = await attempt(bench, name, input);
    if (!result.ok) throw new Error(`${name}: ${result.error.code} ${result.error.message}`);
    return result.value as CallOutput<K>;
  };

  beforeAll(async () => {
    database = await createTestDatabase(inject('postgres'));
  });
  afterAll(async () => {
    for (const bench of benches) {
      await bench.station.close();
      await bench.engine.close();
      rmSync(bench.dataDir, { recursive: true, force: true });
    }
  });

  it('scans at bench 2 an order bench 1 imported, and both importing one manifest at once index each order once', async () => {
    const [first, second] = [await launch(), await launch()];
    await call(first, 'imports.manifest', { source: manifest('monday.csv', ['orderId,orderRef,barcode,status', 'ord_mon_1,NW-MON-1,3SPSMON0001,draft']) });
    // Bench 2 never imported it, and may not ask the service (remote: false): the shared index answers.
    expect(await call(second, 'orders.lookup', { scan: '3SPSMON0001', remote: false })).toMatchObject({ order: { orderId: 'ord_mon_1', orderRef: 'NW-MON-1', status: 'draft' }, matchedBy: ['barcode'] });
    expect(await call(second, 'orders.count', {})).toEqual({ environment: 'test', orders: 1 });

    const rows = Array.from({ length: 2500 }, (_, n) => `ord_tue_${n},NW-TUE-${n},3SPSTUE${String(n).padStart(5, '0')},draft`);
    const tuesday = manifest('tuesday.csv', ['orderId,orderRef,barcode,status', ...rows]);
    const [a, b] = await Promise.all([call(first, 'imports.manifest', { source: tuesday }), call(second, 'imports.manifest', { source: tuesday })]);
    expect([a.failed, b.failed]).toEqual([0, 0]);
    // Each order inserted by exactly one of the two benches; the other one's row updated it.
    expect(a.inserted + b.inserted).toBe(2500);
    expect(a.updated + b.updated).toBe(2500);
    expect(await call(first, 'orders.count', {})).toEqual({ environment: 'test', orders: 2501 });
    // One import record per bench's import, each bench sees both (the imports are shared too).
    expect((await call(second, 'imports.recent', { limit: 10 })).map((record) => [record.fileName, record.state])).toEqual([
      ['tuesday.csv', 'finished'],
      ['tuesday.csv', 'finished'],
      ['monday.csv', 'finished'],
    ]);
  });
});
