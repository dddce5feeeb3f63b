/**
 * A warehouse of benches for tests and benchmarks: N bench processes (test/support/bench-fleet-child.ts),
 * each a whole station with its own data folder and name, on one shared store, each printing to
 * its own virtual Zebra on loopback. The printers live in this process, so their record of what
 * came out survives a bench being killed. The parent sends a bench contract calls as its screen
 * would (a scan is `printing.print`), kills a bench with SIGKILL and starts it again on the same
 * folder (the station's own recovery runs), and stops and starts the PostgreSQL server under them
 * when given one (test/support/postgres-server.ts: a server of the test's own, not the run's shared one).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OrderIndex, type OrderFacts } from '../../src/main/orders/order-index';
import { PostgresEngine } from '../../src/main/store/engine/postgres-engine';
import { SqliteEngine } from '../../src/main/store/engine/sqlite-engine';
import type { StoreEngine } from '../../src/main/store/engine/store-engine';
import { VirtualZebra, type VirtualZebraOptions } from '../../src/sandbox/printer';
import type { PostgresServer } from './postgres-server';
import { BenchMessageSchema, type BenchCall, type BenchConfig, type FleetStore } from './bench-fleet-messages';
import { childScript } from './child-scripts';
import { waitUntil } from './wait-until';

export type { FleetStore } from './bench-fleet-messages';

export type BenchAnswer =
  | { ok: true; value: unknown }
  /** code: the station's error code; BENCH_KILLED when the bench died before answering. */
  | { ok: false; code: string; message: string };

export interface FleetBench {
  readonly index: number;
  readonly name: string;
  /** Its data folder (a command-line call beside it opens the same). */
  readonly dataDir: string;
  readonly zebra: VirtualZebra;
  /** Its printer's id in the station, once it has started. */
  printerId(): string;
  running(): boolean;
  /** Calls sent to it and not yet answered. */
  inFlight(): number;
  /** How many times it was started (1 for a bench never killed). */
  lives(): number;
  /** Starts that failed (the station could not start, e.g. its store unreachable) and were tried again. */
  failedStarts(): number;
  /** True when it died without being killed (its calls then answer BENCH_CRASHED). */
  crashed(): boolean;
  /** The errors no caller caught that it logged and lived on (the station's last resort), across its lives. */
  strayErrors(): readonly string[];
}

export interface Fleet {
  readonly benches: readonly FleetBench[];
  /** A contract call at a bench; a bench that is down or starting is waited for (as a packer would). */
  call(bench: number, name: string, input: unknown): Promise<BenchAnswer>;
  /** SIGKILL: the bench dies mid-work; its unanswered calls answer BENCH_KILLED. */
  kill(bench: number): Promise<void>;
  /**
   * Starts a killed bench again on its folder; resolves once it is ready for calls. A start that
   * fails (the station cannot open its store while the database is down) is tried again every
   * half second, as a supervisor would, for up to `restartWithinMs`.
   */
  start(bench: number): Promise<void>;
  /**
   * Stops the database server, keeps it down for `downMs`, starts it again (PostgreSQL mode, with
   * `database` given); resolves when it is back, with the time it was away.
   */
  restartDatabase(downMs: number): Promise<{ awayMs: number }>;
  /** Stops every bench in order (each closes its station) and its printer, and removes the folders. */
  close(): Promise<void>;
}

export interface FleetOptions {
  benches: number;
  store: FleetStore;
  /** The Delivery API's test environment and a company's key (the sandbox's). */
  baseUrl: string;
  apiKey: string;
  zebra?: VirtualZebraOptions;
  /** The PostgreSQL server the store is on, for restartDatabase. */
  database?: Pick<PostgresServer, 'stop' | 'start'>;
  /** How long a start may keep failing before start() gives up. Default 60 s. */
  restartWithinMs?: number;
  /** Each bench started as the app starts, on the lead's floor, with these settings (operator "Packer <n>"). */
  floor?: Omit<NonNullable<BenchConfig['floor']>, 'operator'>;
  /** Station events each bench sends on as they happen, to `onEvent`. */
  forwardEvents?: string[];
  onEvent?(bench: number, name: string, payload: unknown, at: number): void;
}

/** Opens the shared store from this process (to seed it or read it), migrating it first. */
export async function openFleetStore(store: FleetStore): Promise<StoreEngine> {
  if (store.kind === 'sqlite') return SqliteEngine.open(store.file);
  return PostgresEngine.open({ ...store.connection, tls: 'disable', applicationName: 'fleet parent' });
}

/** Today's draft orders (as the sandbox lists them) into the shared order index, as the morning's manifest import would. */
export function seedDraftOrders(store: FleetStore, orders: readonly { orderId: string; orderRef: string; barcode: string; bundleId: string }[]): Promise<void> {
  return seedOrders(store, orders.map((order) => ({ orderId: order.orderId, orderRef: order.orderRef, barcode: order.barcode, bundleId: order.bundleId, status: 'draft' as const })));
}

/** Puts the day's orders into the shared order index once, as a manifest import would. */
export async function seedOrders(store: FleetStore, orders: readonly OrderFacts[]): Promise<void> {
  const engine = await openFleetStore(store);
  try {
    const index = new OrderIndex(engine);
    await index.transaction((tx) => index.upsertBatch(tx, 'test', orders, 'import'));
  } finally {
    await engine.close();
  }
}

interface Life {
  child: ChildProcess;
  ready: Promise<void>;
  exited: Promise<void>;
  pending: Map<number, (answer: BenchAnswer) => void>;
}

export async function startFleet(options: FleetOptions): Promise<Fleet> {
  const root = mkdtempSync(join(tmpdir(), 'station-fleet-'));
  let nextCallId = 1;

  const benches = await Promise.all(
    Array.from({ length: options.benches }, async (_, index) => {
      const name = `Bench ${index + 1}`;
      const zebra = new VirtualZebra({ labelsPerSecond: 1_000, name: `Zebra ${index + 1}`, ...options.zebra });
      const port = await zebra.start({ host: '127.0.0.1', port: 0 });
      const config: BenchConfig = {
        benchName: name,
        dataDir: mkdtempSync(join(root, `bench-${index + 1}-`)),
        store: options.store,
        baseUrl: options.baseUrl,
        apiKey: options.apiKey,
        printerPort: port,
        ...(options.floor ? { floor: { ...options.floor, operator: `Packer ${index + 1}` } } : {}),
        ...(options.forwardEvents ? { forwardEvents: options.forwardEvents } : {}),
      };
      return { index, name, zebra, config, life: null as Life | null, printerId: '', lives: 0, failedStarts: 0, crashed: null as (() => string) | null, strayErrors: [] as string[] };
    }),
  );

  const launch = (bench: (typeof benches)[number]): Life => {
    // The configuration (with the store's password) goes in the environment, not on the command line anyone can list.
    const child = fork(childScript('test/support/bench-fleet-child.ts'), [], {
      execArgv: [],
      env: { ...process.env, FLEET_BENCH_CONFIG: JSON.stringify(bench.config) },
      stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
    });
    // Its error output goes on to this process's, and its last lines are kept: a bench that dies
    // by itself says why in the answer of the next call made to it.
    const lastWords: string[] = [];
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      process.stderr.write(chunk);
      const lines = chunk.split('\n').filter((line) => line.trim() !== '');
      bench.strayErrors.push(...lines.filter((line) => /"message":"(unhandled rejection|uncaught exception)"/.test(line)));
      lastWords.push(...lines);
      lastWords.splice(0, Math.max(0, lastWords.length - 12));
    });
    const pending = new Map<number, (answer: BenchAnswer) => void>();
    let markReady: () => void = () => undefined;
    let failStart: (error: Error) => void = () => undefined;
    const ready = new Promise<void>((resolve, reject) => {
      markReady = resolve;
      failStart = reject;
    });
    // Callers of a bench that fails to start learn it from the call; nobody else need listen.
    ready.catch(() => undefined);
    let started = false;
    const exited = new Promise<void>((resolve) => {
      child.once('exit', (code, signal) => {
        if (!started) failStart(new Error(`${bench.name} exited before it was ready (${signal ?? `code ${code}`})`));
        // Read when a call comes: its last lines may still be arriving after the exit.
        else if (bench.life === life) bench.crashed = () => `${signal ?? `code ${code}`}; its last words: ${lastWords.join(' | ') || '(none)'}`;
        for (const answer of pending.values()) answer({ ok: false, code: 'BENCH_KILLED', message: `${bench.name} stopped (${signal ?? `code ${code}`}) before answering` });
        pending.clear();
        resolve();
      });
    });
    child.on('message', (raw: unknown) => {
      const message = BenchMessageSchema.parse(raw);
      if (message.type === 'event') {
        options.onEvent?.(bench.index, message.name, message.payload, message.at);
        return;
      }
      if (message.type === 'ready') {
        bench.printerId = message.printerId;
        started = true;
        markReady();
        return;
      }
      const answer = pending.get(message.id);
      pending.delete(message.id);
      answer?.(message.ok ? { ok: true, value: message.value } : { ok: false, code: message.error.code, message: message.error.message });
    });
    const life: Life = { child, ready, exited, pending };
    return life;
  };

  const restartWithinMs = options.restartWithinMs ?? 60_000;
  const startBench = async (bench: (typeof benches)[number]): Promise<void> => {
    // A start that fails is tried again every half second, as a service supervisor would.
    let lastError: unknown = null;
    const started = await waitUntil(
      async () => {
        const life = launch(bench);
        try {
          await life.ready;
          bench.life = life;
          bench.lives += 1;
          return true;
        } catch (error) {
          bench.failedStarts += 1;
          lastError = error;
          return false;
        }
      },
      `${bench.name} started`,
      restartWithinMs,
      500,
    ).then(
      () => true,
      () => false,
    );
    if (!started) throw lastError;
  };

  const benchAt = (index: number) => {
    const bench = benches[index];
    if (!bench) throw new RangeError(`no bench ${index}`);
    return bench;
  };

  const firstStarts = await Promise.allSettled(benches.map(startBench));
  const failed = firstStarts.find((result) => result.status === 'rejected');
  if (failed) {
    for (const bench of benches) bench.life?.child.kill('SIGKILL');
    throw failed.reason;
  }

  return {
    benches: benches.map((bench) => ({
      index: bench.index,
      name: bench.name,
      dataDir: bench.config.dataDir,
      zebra: bench.zebra,
      printerId: () => bench.printerId,
      running: () => bench.life !== null,
      inFlight: () => bench.life?.pending.size ?? 0,
      lives: () => bench.lives,
      failedStarts: () => bench.failedStarts,
      crashed: () => bench.crashed !== null,
      strayErrors: () => bench.strayErrors,
    })),
    async call(index, name, input) {
      const bench = benchAt(index);
      // A bench that is down (killed, not yet started again) is waited for.
      await waitUntil(() => Boolean(bench.life), `${bench.name} started again`, 120_000);
      const life = bench.life;
      if (!life) throw new Error(`${bench.name} has no life after waiting for it`);
      if (bench.crashed !== null || !life.child.connected) return { ok: false, code: 'BENCH_CRASHED', message: `${bench.name} died by itself (${bench.crashed?.() ?? 'its channel closed'})` };
      const id = nextCallId++;
      return new Promise<BenchAnswer>((resolve) => {
        life.pending.set(id, resolve);
        const call: BenchCall = { id, name, input };
        life.child.send(call, (error) => {
          if (!error || !life.pending.delete(id)) return;
          resolve({ ok: false, code: 'BENCH_KILLED', message: `${bench.name} could not be reached: ${error.message}` });
        });
      });
    },
    async kill(index) {
      const bench = benchAt(index);
      const life = bench.life;
      if (!life) return;
      bench.life = null;
      life.child.kill('SIGKILL');
      await life.exited;
    },
    async start(index) {
      const bench = benchAt(index);
      if (bench.life) return;
      await startBench(bench);
    },
    async restartDatabase(downMs) {
      const database = options.database;
      if (!database) throw new Error('this fleet was given no database server to restart');
      const stoppedAt = Date.now();
      await database.stop();
      // Time is the input: the database is away this long.
      await new Promise((resolve) => setTimeout(resolve, downMs));
      await database.start();
      return { awayMs: Date.now() - stoppedAt };
    },
    async close() {
      for (const bench of benches) {
        const life = bench.life;
        bench.life = null;
        if (life) {
          if (life.child.connected) life.child.disconnect();
          await life.exited;
        }
        await bench.zebra.stop();
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
}
