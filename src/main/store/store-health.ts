/**
 * Whether the shared store answers. Every call a repository makes through the watched engine
 * reports a connection failure here (store-errors.ts classifies it as STORE_UNAVAILABLE), and a
 * heartbeat asks the store while nothing else does, so an idle bench learns it too. While offline
 * a probe asks again every few seconds until the store answers; then work that waited for it
 * (migrations, the start-up recovery, following notices) runs, and the screen hears it is back.
 *
 * Printing is refused while offline (storeOfflineError): without the shared store the duplicate
 * guard cannot be asked. The health also carries a lead's permission to print locally meanwhile
 * (printing/offline/local-only-printing.ts decides what it means for a print).
 */
import type { LocalPrintingData, StoreHealthData, StoreProblem } from '../../shared/contract/store';
import { StationError } from '../../shared/errors';
import type { Row, SqlValue, StoreEngine, StoreTransaction, Subscription, SubscriptionHandlers, TransactionOptions } from './engine/store-engine';

/** The timer the probe and heartbeat run on; tests inject their own. */
export interface HealthTimers {
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemTimers: HealthTimers = {
  setTimeout: (run, ms) => {
    const handle = setTimeout(run, ms);
    handle.unref();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface StoreHealth {
  current(): StoreHealthData;
  onChange(listener: (health: StoreHealthData) => void): () => void;
  /** A store call failed: a connection failure takes the store offline. */
  report(error: unknown): void;
  /** Runs `work` once the store answers (now, when it does). A failure of it is logged by the caller. */
  whenOnline(work: () => Promise<void>): void;
  /** A lead's local-only printing began, changed (ending) or ended (null); the screen hears it with the health. */
  setLocalPrinting(localPrinting: LocalPrintingData | null): void;
  close(): void;
}

/** The offline refusal, with what the screen needs to word it. */
export function storeOfflineError(since: string | null, problem: StoreProblem | null, subject: 'offline' | 'merging' | 'scans-only' = 'offline'): StationError {
  const words = {
    offline: 'The shared store is offline: printing would skip the duplicate guard, so nothing is printed.',
    merging: "The shared store is back and this bench's local-only labels are being merged into its journal: printing starts again once that is done.",
    'scans-only': 'The shared store is offline: local-only printing covers scans, not bundle runs, so nothing is printed.',
  }[subject];
  return new StationError('STORE_OFFLINE', words, since ? [`offline since ${since}`] : undefined, { facts: { subject, since, problem } });
}

/** One bench on its own file: always there. */
export function localStoreHealth(): StoreHealth {
  const state: StoreHealthData = { state: 'local', since: null, problem: null, localPrinting: null };
  return {
    current: () => state,
    onChange: () => () => undefined,
    report: () => undefined,
    whenOnline: (work) => void work(),
    setLocalPrinting: () => undefined,
    close: () => undefined,
  };
}

export interface SharedStoreHealthOptions {
  /** Asks the store (and brings it up to date); throws when it does not answer. */
  probe(): Promise<void>;
  /** A cheap question while online (SELECT 1). */
  heartbeat(): Promise<void>;
  /** Why a failed probe failed, for the screen. */
  problemOf(error: unknown): StoreProblem;
  onWorkFailed(error: unknown): void;
  timers?: HealthTimers;
  clock?: () => Date;
  /** Pause between probes while offline. Default 3 s. */
  probeIntervalMs?: number;
  /** Pause between heartbeats while online. Default 5 s. */
  heartbeatIntervalMs?: number;
}

/** True when an error means the store could not be reached (not that a statement was wrong). */
export const isUnreachable = (error: unknown): boolean => error instanceof StationError && error.code === 'STORE_UNAVAILABLE';

/**
 * The shared store's health. It counts as offline until the first probe answers: `start` probes
 * at once, so a bench whose store is unreachable still opens (offline) instead of failing to start.
 */
export function sharedStoreHealth(options: SharedStoreHealthOptions): StoreHealth & { start(): Promise<void> } {
  const timers = options.timers ?? systemTimers;
  const clock = options.clock ?? (() => new Date());
  const probeInterval = options.probeIntervalMs ?? 3_000;
  const heartbeatInterval = options.heartbeatIntervalMs ?? 5_000;
  let state: StoreHealthData = { state: 'offline', since: clock().toISOString(), problem: 'unreachable', localPrinting: null };
  let closed = false;
  let timer: unknown = null;
  let asking = false;
  const listeners = new Set<(health: StoreHealthData) => void>();
  let waiting: (() => Promise<void>)[] = [];

  const change = (next: StoreHealthData) => {
    state = next;
    for (const listener of [...listeners]) listener(state);
  };
  const schedule = (ms: number) => {
    if (closed) return;
    if (timer !== null) timers.clearTimeout(timer);
    timer = timers.setTimeout(() => {
      timer = null;
      void ask();
    }, ms);
  };
  const goOffline = (problem: StoreProblem) => {
    if (state.state !== 'offline' || state.problem !== problem) {
      change({ ...state, state: 'offline', since: state.state === 'offline' ? state.since : clock().toISOString(), problem });
    }
    schedule(probeInterval);
  };
  const goOnline = () => {
    if (state.state !== 'online') change({ ...state, state: 'online', since: clock().toISOString(), problem: null });
    const work = waiting;
    waiting = [];
    for (const run of work) run().catch((error: unknown) => options.onWorkFailed(error));
    schedule(heartbeatInterval);
  };
  const ask = async () => {
    if (closed || asking) return;
    asking = true;
    try {
      if (state.state === 'online') await options.heartbeat();
      else await options.probe();
      if (!closed) goOnline();
    } catch (error) {
      if (!closed) goOffline(options.problemOf(error));
    } finally {
      asking = false;
    }
  };

  return {
    current: () => state,
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    report(error) {
      if (closed || !isUnreachable(error) || state.state === 'offline') return;
      goOffline('unreachable');
    },
    whenOnline(work) {
      if (state.state === 'online') void work().catch((error: unknown) => options.onWorkFailed(error));
      else waiting.push(work);
    },
    setLocalPrinting(localPrinting) {
      if (!closed) change({ ...state, localPrinting });
    },
    start: () => ask(),
    close() {
      closed = true;
      if (timer !== null) timers.clearTimeout(timer);
      timer = null;
      listeners.clear();
      waiting = [];
    },
  };
}

/**
 * The engine as the repositories get it: every failure to reach the store is reported to the
 * health before it is rethrown, so the first failed scan already takes the bench offline.
 */
export function watchedEngine(engine: StoreEngine, health: Pick<StoreHealth, 'report'>): StoreEngine {
  const watch = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      health.report(error);
      throw error;
    }
  };
  return {
    kind: engine.kind,
    dialect: engine.dialect,
    commitCanSkipDiskWait: engine.commitCanSkipDiskWait,
    sharedByBenches: engine.sharedByBenches,
    outsideWritesVersion: () => watch(() => engine.outsideWritesVersion()),
    query: <T extends Row = Row>(sql: string, params?: readonly SqlValue[]) => watch(() => engine.query<T>(sql, params)),
    execute: (sql, params) => watch(() => engine.execute(sql, params)),
    executeWithoutDiskWait: (sql, params) => watch(() => engine.executeWithoutDiskWait(sql, params)),
    transaction: <T>(work: (tx: StoreTransaction) => Promise<T>, options?: TransactionOptions) => watch(() => engine.transaction(work, options)),
    notify: (channel, payload) => watch(() => engine.notify(channel, payload)),
    subscribe: (channel: string, handlers: SubscriptionHandlers): Promise<Subscription> => watch(() => engine.subscribe(channel, handlers)),
    close: () => engine.close(),
  };
}
