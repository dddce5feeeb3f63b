/**
 * Simulated benches for bench/floor.ts: each one the station's own floor parts — a FloorReporter
 * writing through a FloorStore and a FloorView following the floor — on a PostgreSQL engine of its
 * own (its own LISTEN connection, a pool of two), as a bench process would hold them. What is
 * simulated is only what the report says: a "scan" every `paceMs` moves the bench's counters and
 * its last scan time, instead of a whole station printing a label. The worker tells its parent,
 * in batches, when each of its floors first saw each bench's scan (the scan's own time is in the
 * report: `lastScanAt`), a bench go silent, or a printer change.
 *
 * Started by bench/floor.ts with `node --import tsx`; speaks over Node's IPC channel.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { BenchReportData, FloorBenchData } from '../src/shared/contract/floor';
import { FloorReporter } from '../src/main/floor/floor-reporter';
import { FloorStore } from '../src/main/floor/floor-store';
import { systemTimers } from '../src/main/floor/floor-timers';
import { FloorView } from '../src/main/floor/floor-view';
import { createLogger } from '../src/main/logging/logger';
import { PostgresEngine } from '../src/main/store/engine/postgres-engine';

export const StartSchema = z.object({
  type: z.literal('start'),
  benches: z.array(z.object({ name: z.string() })),
  connection: z.object({ host: z.string(), port: z.number(), user: z.string(), password: z.string(), database: z.string() }),
  paceMs: z.number().int().positive(),
  silentAfterMs: z.number().int().positive(),
});

export type WorkerMessage =
  | { type: 'ready'; benchIds: string[] }
  | { type: 'seen'; events: SeenEvent[] }
  | { type: 'stopped' };

/** A floor (`floor`, a simulated bench) saw something of a bench at `at` (epoch ms). */
export type SeenEvent =
  | { kind: 'scan'; floor: string; bench: string; scanAt: string; at: number }
  | { kind: 'silent'; floor: string; bench: string; heardAt: string; at: number }
  | { kind: 'printer'; floor: string; bench: string; state: string; at: number };

interface Simulated {
  id: string;
  engine: PostgresEngine;
  reporter: FloorReporter;
  view: FloorView;
  stopScans: () => void;
}

const logger = createLogger(() => undefined);
const send = (message: WorkerMessage) => process.send?.(message);

function report(id: string, name: string, scans: number, lastScanAt: string | null, startedAt: string): BenchReportData {
  return {
    benchId: id,
    stationName: name,
    operator: `Packer of ${name}`,
    environment: 'test',
    printers: [{ printerId: `p-${id.slice(0, 8)}`, name: `${name} Zebra`, state: 'ready', fault: null, busyWith: null, inBuffer: 0, roles: ['single', 'bundles'] }],
    labelsInBuffer: 0,
    labelsToday: scans,
    labelsLastHour: scans,
    lastScanAt,
    uncertainCount: 0,
    uncertain: [],
    runs: [],
    startedAt,
    stoppedAt: null,
  };
}

async function main(): Promise<void> {
  const start = await new Promise<z.infer<typeof StartSchema>>((resolve) => process.once('message', (raw) => resolve(StartSchema.parse(raw))));
  const pending: SeenEvent[] = [];
  const flush = setInterval(() => {
    if (pending.length > 0) send({ type: 'seen', events: pending.splice(0) });
  }, 250);
  const simulated: Simulated[] = [];
  for (const [index, bench] of start.benches.entries()) {
    const id = randomUUID();
    const engine = new PostgresEngine({ ...start.connection, tls: 'disable', applicationName: bench.name, poolSize: 2 });
    const store = new FloorStore(engine);
    const startedAt = new Date().toISOString();
    let scans = 0;
    let lastScanAt: string | null = null;
    const reporter = new FloorReporter({
      build: async (stoppedAt) => ({ ...report(id, bench.name, scans, lastScanAt, startedAt), stoppedAt }),
      write: async (built, at, changed) => {
        await store.writeReport(built, at, changed);
      },
      timers: systemTimers,
      logger,
    });
    // What each floor last showed of each bench, so a change is told once.
    const shown = new Map<string, FloorBenchData>();
    const view = new FloorView({
      store,
      selfId: id,
      silentAfterMs: start.silentAfterMs,
      timers: systemTimers,
      logger,
      emit: (seen) => {
        const at = Date.now();
        const before = shown.get(seen.benchId);
        shown.set(seen.benchId, seen);
        if (seen.lastScanAt && seen.lastScanAt !== before?.lastScanAt) pending.push({ kind: 'scan', floor: id, bench: seen.benchId, scanAt: seen.lastScanAt, at });
        if (seen.answering === 'silent' && before?.answering !== 'silent') pending.push({ kind: 'silent', floor: id, bench: seen.benchId, heardAt: seen.heardAt, at });
        const printer = seen.printers.map((candidate) => `${candidate.state}:${candidate.fault ?? ''}`).join(',');
        if (before && printer !== before.printers.map((candidate) => `${candidate.state}:${candidate.fault ?? ''}`).join(',')) pending.push({ kind: 'printer', floor: id, bench: seen.benchId, state: printer, at });
      },
    });
    await view.follow();
    reporter.start();
    // Staggered over the pace, as packers are.
    let timer: NodeJS.Timeout | null = setTimeout(
      function scan() {
        scans += 1;
        lastScanAt = new Date().toISOString();
        reporter.changed();
        timer = setTimeout(scan, start.paceMs);
      },
      Math.round((start.paceMs * index) / start.benches.length),
    );
    simulated.push({ id, engine, reporter, view, stopScans: () => timer && clearTimeout(timer) });
  }
  send({ type: 'ready', benchIds: simulated.map((bench) => bench.id) });
  process.once('message', async () => {
    for (const bench of simulated) bench.stopScans();
    for (const bench of simulated) {
      await bench.reporter.stop();
      await bench.view.close();
      await bench.engine.close();
    }
    clearInterval(flush);
    if (pending.length > 0) send({ type: 'seen', events: pending.splice(0) });
    send({ type: 'stopped' });
    process.exit(0);
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`simulated benches failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
