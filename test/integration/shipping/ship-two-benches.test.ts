/**
 * Two benches of a warehouse on one shared PostgreSQL store, shipping against the embedded
 * sandbox: each a whole station (its own data folder and bench id, its own engine on the store).
 * Exactly one bench creates each parcel, whatever the timing; a bench asking while the other is
 * posting is told so and sends nothing; a bench starting leaves another bench's POST in flight
 * alone, and a bench restarting settles its own. Both benches running one spreadsheet upload
 * create each row once and count it created.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { composeStation, type Station } from '../../../src/main/composition';
import { createEmbeddedSandbox, type EmbeddedSandbox, type RunningSandbox } from '../../../src/main/embedded-sandbox';
import { createLogger } from '../../../src/main/logging/logger';
import { PostgresEngine } from '../../../src/main/store/engine/postgres-engine';
import type { CallName, CallOutput } from '../../../src/shared/contract';
import type { StationErrorData } from '../../../src/shared/errors';
import { createTestDatabase, type TestDatabase } from '../../support/postgres-server';
import { memoryKeyStore } from '../../support/station';
import { goodRow, header as uploadHeader } from '../upload/support';
import { postgresConfig } from '../store-engine/engines';
import { controlCall } from '../printing-queue/support';
import { waitForValue } from '../../support/wait-until';

type Outcome<K extends CallName> = { ok: true; value: CallOutput<K> } | { ok: false; error: StationErrorData };

const SandboxOrdersSchema = z.object({ orders: z.array(z.looseObject({ orderId: z.string(), orderRef: z.string() })) });

const shipHeader = 'orderRef,locationId,deliveryStreet,deliveryNumber,deliverySuffix,deliveryPostalCode,deliveryCity,deliveryCountry,deliveryName,parcels';
const slips = ['NW-TWO-1', 'NW-TWO-2', 'NW-TWO-3', 'NW-TWO-4'];

interface Bench {
  dataDir: string;
  engine: PostgresEngine;
  station: Station;
}

describe('two benches shipping on one shared store', () => {
  let sandbox: EmbeddedSandbox;
  let running: RunningSandbox;
  let database: TestDatabase;
  const benches: Bench[] = [];

  const launch = async (dataDir: string): Promise<Bench> => {
    const engine = await PostgresEngine.open(postgresConfig(database.info));
    const station = await composeStation({
      dataDir,
      host: 'web',
      version: '0.0.0-test',
      logger: createLogger(() => undefined),
      keyStore: memoryKeyStore(),
      sandbox,
      store: engine,
      clientOptions: { timeouts: { responseMs: 5_000, attemptMs: 6_000 } },
    });
    const bench = { dataDir, engine, station };
    benches.push(bench);
    return bench;
  };
  const stop = async (bench: Bench) => {
    benches.splice(benches.indexOf(bench), 1);
    await bench.station.close();
    await bench.engine.close();
  };
  const attempt = async <K extends CallName>(bench: Bench, name: K, input: unknown): Promise<Outcome<K>> => (await bench.station.dispatcher.dispatch(name, input, { host: 'web' })) as Outcome<K>;
  const call = async <K extends CallName>(bench: Bench, name: K, input: unknown): Promise<CallOutput<K>> => {
    const result = await attempt(bench, name, input);
    if (!result.ok) throw new Error(`${name}: ${result.error.code} ${result.error.message}`);
    return result.value;
  };
  const control = (path: string, init: { method?: string; body?: unknown } = {}) => controlCall(running, path, init);
  const createdAtService = async (serviceRef: string) => SandboxOrdersSchema.parse(await control(`/environments/test/orders?orderRef=${encodeURIComponent(serviceRef)}`)).orders.length;
  const slowCreates = (latencyMs: number) => control('/settings', { method: 'PATCH', body: { faults: { faultScope: 'create-order', latencyMs } } });

  beforeAll(async () => {
    database = await createTestDatabase(inject('postgres'));
    sandbox = createEmbeddedSandbox({ seedSize: 'small', rateLimit: { requestsPerSecond: 0 }, faults: { labelDelayMs: 0 } });
    running = await sandbox.start();
    const [a, b] = [await launch(mkdtempSync(join(tmpdir(), 'bench-a-'))), await launch(mkdtempSync(join(tmpdir(), 'bench-b-')))];
    await a.station.services.sandboxReady();
    await b.station.services.sandboxReady();
    const rows = [...slips.map((slip, index) => `${slip},1101,Damrak,${index + 1},,1012 LG,Amsterdam,NL,Noah Visser,2`), 'NW-TWO-SLOW,1101,Rokin,5,,1012 KK,Amsterdam,NL,Mila Jansen,1'];
    const file = join(a.dataDir, 'to-ship.csv');
    writeFileSync(file, [shipHeader, ...rows].join('\n'));
    // One bench imports: the orders to ship are the warehouse's.
    expect(await call(a, 'shipping.import', { source: { kind: 'picked', handle: a.station.services.pickedFiles.register(file) } })).toMatchObject({ newRows: 5 });
  }, 60_000);

  afterAll(async () => {
    for (const bench of [...benches]) {
      await stop(bench);
      rmSync(bench.dataDir, { recursive: true, force: true });
    }
    await sandbox?.close();
    await database?.drop();
  });

  it('ship the same slips at the same moment: every parcel is created exactly once at the service', async () => {
    const [a, b] = benches as [Bench, Bench];
    await slowCreates(150);
    let outcomes: Outcome<'shipping.ship'>[][];
    try {
      outcomes = await Promise.all(slips.map((orderRef) => Promise.all([attempt(a, 'shipping.ship', { orderRef }), attempt(b, 'shipping.ship', { orderRef })])));
    } finally {
      await slowCreates(0);
    }
    for (const [index, orderRef] of slips.entries()) {
      expect([await createdAtService(orderRef), await createdAtService(`${orderRef}-P2`)], orderRef).toEqual([1, 1]);
      const pair = outcomes[index]!;
      // A bench that lost a parcel to the other while it was being posted is told so; nothing else fails.
      for (const outcome of pair) if (!outcome.ok) expect(outcome.error.code, orderRef).toBe('OUTCOME_UNKNOWN');
      const createdHere = pair.flatMap((outcome) => (outcome.ok && outcome.value.outcome === 'shipped' ? outcome.value.parcels.filter((parcel) => parcel.createdNow).map((parcel) => parcel.parcel) : []));
      expect(new Set(createdHere).size, `${orderRef}: no parcel reported created by both benches`).toBe(createdHere.length);
      // Both benches read the one outcome from the shared ledger.
      const [seenByA, seenByB] = [await call(a, 'shipping.ledger', { orderRef }), await call(b, 'shipping.ledger', { orderRef })];
      expect(seenByA.map((entry) => entry.state)).toEqual(['created', 'created']);
      expect(seenByB).toEqual(seenByA);
    }
  }, 60_000);

  it('a bench shipping a slip the other bench is posting is told so and sends nothing; once created it prints it without creating it', async () => {
    const [a, b] = benches as [Bench, Bench];
    await slowCreates(1_500);
    let first: Promise<Outcome<'shipping.ship'>>;
    try {
      first = attempt(a, 'shipping.ship', { orderRef: 'NW-TWO-SLOW' });
      await waitForValue(async () => ((await call(b, 'shipping.ledger', { orderRef: 'NW-TWO-SLOW' }))[0]?.state === 'posting' ? true : null), 'bench A posting the parcel');
      const meanwhile = await attempt(b, 'shipping.ship', { orderRef: 'NW-TWO-SLOW' });
      if (meanwhile.ok) throw new Error(`expected bench B to be told the parcel is being created, got ${JSON.stringify(meanwhile.value)}`);
      expect(meanwhile.error.code).toBe('OUTCOME_UNKNOWN');
      expect(meanwhile.error.details).toEqual(['parcel 1: posting']);
    } finally {
      await slowCreates(0);
    }
    const shippedByA = await first;
    if (!shippedByA.ok || shippedByA.value.outcome !== 'shipped') throw new Error(`expected bench A to ship, got ${JSON.stringify(shippedByA)}`);
    expect(shippedByA.value.parcels[0]).toMatchObject({ createdNow: true });
    const shippedByB = await call(b, 'shipping.ship', { orderRef: 'NW-TWO-SLOW' });
    if (shippedByB.outcome !== 'shipped') throw new Error(`expected shipped, got ${shippedByB.outcome}`);
    expect(shippedByB.parcels[0]).toMatchObject({ createdNow: false, orderId: shippedByA.value.parcels[0]!.orderId });
    expect(await createdAtService('NW-TWO-SLOW')).toBe(1);
  }, 30_000);

  it('run the same spreadsheet upload at the same moment: every row created exactly once, and the upload counts each row created', async () => {
    const [a, b] = benches as [Bench, Bench];
    const rows = Array.from({ length: 24 }, (_, index) => goodRow('NW-UP-TWO', index + 1, '1101'));
    const csv = [uploadHeader.join(','), ...rows.map((row) => uploadHeader.map((column) => row[column]).join(','))].join('\n');
    const preview = await call(a, 'upload.prepare', { source: { kind: 'content', fileName: 'orders.csv', base64: Buffer.from(csv).toString('base64') }, locations: ['1101'] });
    expect(preview.status.counts).toMatchObject({ total: 24, ready: 24 });
    const uploadId = preview.status.uploadId;
    await slowCreates(60);
    try {
      await Promise.all([call(a, 'upload.start', { uploadId }), call(b, 'upload.start', { uploadId })]);
      await Promise.all([a.station.services.uploads.settled(uploadId), b.station.services.uploads.settled(uploadId)]);
    } finally {
      await slowCreates(0);
    }
    const perRow = await Promise.all(rows.map((row) => createdAtService(row.orderRef)));
    expect(perRow).toEqual(rows.map(() => 1));
    const status = await call(b, 'upload.status', { uploadId });
    expect(status?.counts).toMatchObject({ total: 24, created: 24, skipped: 0, unknown: 0, failed: 0, ready: 0 });
    expect(status?.result).toBe('completed');
  }, 60_000);

  it('a bench starting leaves another bench\'s parcel posting alone; the bench that left it posting settles it as unknown when it restarts', async () => {
    const [a, b] = benches as [Bench, Bench];
    // Bench A is in the middle of a POST (its claim taken, no answer yet).
    expect(await a.station.services.ledger.claim('sandbox', 'NW-TWO-FLIGHT', 1, 1)).toBe(true);
    const third = await launch(mkdtempSync(join(tmpdir(), 'bench-c-')));
    expect((await call(b, 'shipping.ledger', { orderRef: 'NW-TWO-FLIGHT' }))[0]).toMatchObject({ state: 'posting' });
    expect((await call(third, 'shipping.ledger', { orderRef: 'NW-TWO-FLIGHT' }))[0]).toMatchObject({ state: 'posting' });

    // Bench A stops mid-POST and starts again on its own data folder (its bench id).
    const dataDirA = a.dataDir;
    await stop(a);
    const restarted = await launch(dataDirA);
    expect((await call(b, 'shipping.ledger', { orderRef: 'NW-TWO-FLIGHT' }))[0]).toMatchObject({ state: 'unknown' });
    expect(await call(restarted, 'shipping.unknown', {})).toEqual([expect.objectContaining({ orderRef: 'NW-TWO-FLIGHT', parcel: 1 })]);
  }, 30_000);
});
