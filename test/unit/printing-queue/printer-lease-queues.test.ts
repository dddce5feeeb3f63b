/**
 * The printer lease as the print queues hold it (queue-registry.ts), on a fake clock with a fake
 * Zebra and a real store (SQLite in memory; the leases' SQL is the same on PostgreSQL, see
 * test/integration/store-engine/printers.test.ts): taken by a claim, renewed while the queue has
 * work, given back when the queue goes idle, when a claim's run never came, and when the station stops.
 */
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/main/logging/logger';
import { PrinterLeases } from '../../../src/main/printing/printer-leases';
import type { PrinterRecord } from '../../../src/main/printing/printers';
import { defaultPrinterOptions } from '../../../src/main/printing/printers';
import { describeLabelRoute } from '../../../src/main/printing/label-route';
import { QueueRegistry } from '../../../src/main/printing/runs/queue-registry';
import type { PrinterTransports } from '../../../src/main/printing/transports/printer-transports';
import { SqliteEngine } from '../../../src/main/store/engine/sqlite-engine';
import { StationError } from '../../../src/shared/errors';
import { FakeClock, FakeZebra, RecordingSource } from './fake-zebra';

const base = {
  id: 'p-zebra4',
  environment: 'test',
  name: 'Zebra 4',
  address: { kind: 'network-zebra', host: '10.0.0.4', port: 9100 },
  format: 'zpl',
  description: 'the printer at 10.0.0.4:9100',
  orientation: 'landscape',
  defaultForSingle: true,
  defaultForBundles: true,
  options: defaultPrinterOptions,
  createdAt: '2026-11-24T06:00:00.000Z',
  updatedAt: '2026-11-24T06:00:00.000Z',
} satisfies Omit<PrinterRecord, 'route'>;
const printer: PrinterRecord = { ...base, route: describeLabelRoute(base) };

function setup() {
  const clock = new FakeClock();
  const zebra = new FakeZebra(clock);
  const engine = SqliteEngine.open(':memory:');
  const mine = new PrinterLeases(engine, { bench: 'bench-a', benchName: () => 'Bench 3', now: () => clock.now() });
  const other = new PrinterLeases(engine, { bench: 'bench-b', benchName: () => 'Bench 7', now: () => clock.now() });
  // The station's transports hand every queue its connection; here the one fake Zebra.
  const transports = { forPrinter: () => zebra } as unknown as PrinterTransports;
  const queues = new QueueRegistry({
    transports,
    logger: createLogger(() => undefined, { level: 'error' }),
    clock,
    leases: mine,
    timing: { faultPollMs: 500 },
    onPrinterState: () => undefined,
    onQueueIdle: () => undefined,
  });
  const holder = async () => (await other.holder(printer))?.benchName ?? null;
  return { clock, zebra, engine, queues, other, holder };
}

const refusedBy = async (taking: Promise<void>): Promise<string | null> =>
  taking.then(
    () => null,
    (error: unknown) => (error instanceof StationError && error.code === 'PRINTER_LEASED' ? String(error.facts?.benchName) : `unexpected: ${String(error)}`),
  );

describe('the printer lease held by the print queues', () => {
  it('is renewed while the queue has work, past the time it would have expired, and given back when the queue goes idle', async () => {
    const { clock, zebra, engine, queues, other, holder } = setup();
    await queues.claim(printer);
    zebra.paperOut = true;
    const run = new RecordingSource([1, 2]);
    queues.queueFor(printer).attach(run);
    // 45 s waiting for paper: more than the 30 s a lease lasts without renewal.
    await clock.advance(45_000);
    expect(await holder()).toBe('Bench 3');
    expect(await refusedBy(other.take(printer))).toBe('Bench 3');
    zebra.paperOut = false;
    await clock.until(() => run.printedIds.length === 2);
    // The run is done (a print run detaches then): the queue goes idle 45 s after the claim, and
    // the lease is given back at once, before any renewal turn.
    const queue = queues.queueFor(printer);
    queue.detach(run);
    await clock.until(() => queues.allIdle);
    await clock.settle();
    expect(await holder()).toBeNull();
    await other.take(printer);
    await engine.close();
  });

  it('gives a claim back when its run never reached the queue, at the next renewal turn', async () => {
    const { clock, engine, queues, holder } = setup();
    await queues.claim(printer);
    expect(await holder()).toBe('Bench 3');
    await clock.advance(9_000);
    expect(await holder()).toBe('Bench 3');
    await clock.advance(1_000);
    expect(await holder()).toBeNull();
    await engine.close();
  });

  it('gives it back when the station stops', async () => {
    const { engine, queues, holder } = setup();
    await queues.claim(printer);
    expect(await holder()).toBe('Bench 3');
    await queues.closeAll();
    expect(await holder()).toBeNull();
    await engine.close();
  });

  it('refuses a claim while another bench holds the printer, and queues nothing', async () => {
    const { engine, queues, other } = setup();
    await other.take(printer);
    expect(await refusedBy(queues.claim(printer))).toBe('Bench 7');
    expect(queues.allIdle).toBe(true);
    await engine.close();
  });
});
