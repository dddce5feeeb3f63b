/**
 * Where a bench on a warehouse's shared store writes its print journal: the shared store, or,
 * while a lead lets it print on its own while that store is offline (local-only printing,
 * printing/offline), the bench's own file. The printing core runs on this one engine; every
 * statement goes to the store in use when it is made.
 *
 * Label ids are each store's own: a shared run's late "printed" must never land on the bench's
 * file, nor a local label's on the shared store. So a run keeps writing where it began
 * (PrintJournal.pinned: the journal on `inUse()`), and a call that reads a label and then changes
 * it runs in `hold`, which a move waits for (and which waits for a move under way). What this store
 * itself knows is why it writes to the bench's file: the lead's permission, which the journal puts
 * on every label written there.
 *
 * On one bench (no shared store) both places are the bench's file and the journal never moves.
 */
import type { Dialect } from './engine/dialect';
import type { ExecuteResult, Row, SqlValue, StoreEngine, StoreTransaction, Subscription, SubscriptionHandlers, TransactionOptions } from './engine/store-engine';

export type PrintingPlace = 'shared' | 'bench';

/** Why the journal writes to the bench's file: the lead's permission and its reason. */
export interface LocalOnlyMark {
  reason: string;
  by: string;
}

export interface PrintingStore extends StoreEngine {
  /** Where statements go now. */
  readonly place: PrintingPlace;
  /** The engine statements go to now (a run pins its journal to it). */
  inUse(): StoreEngine;
  /** The warehouse's shared store and the bench's own file (the same engine on one bench). */
  readonly shared: StoreEngine;
  readonly bench: StoreEngine;
  /** The lead's permission while the journal writes to the bench's file; null on the shared store. */
  localOnly(): LocalOnlyMark | null;
  /** Runs `work` with the store staying where it is (a move waits for it to end). */
  hold<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Writes go to the bench's file from now on, each label marked with `mark` (printing/offline
   * decides when); null while the bench only settles what its file holds, printing nothing new.
   * Resolves once the calls held where the store was have ended.
   */
  moveToBench(mark: LocalOnlyMark | null): Promise<void>;
  /** Writes go to the shared store again (after the bench's labels were merged into it). */
  moveToShared(): Promise<void>;
}

export function createPrintingStore(stores: { shared: StoreEngine; bench: StoreEngine }): PrintingStore {
  let place: PrintingPlace = 'shared';
  let mark: LocalOnlyMark | null = null;
  const inUse = () => (place === 'bench' ? stores.bench : stores.shared);
  let held = 0;
  let released: (() => void) | null = null;
  let moving: Promise<void> | null = null;
  const move = async (to: PrintingPlace, nextMark: LocalOnlyMark | null) => {
    while (moving) await moving;
    let moved = () => undefined as void;
    moving = new Promise<void>((resolve) => (moved = resolve));
    try {
      if (held > 0) await new Promise<void>((resolve) => (released = resolve));
      place = to;
      mark = nextMark ? { ...nextMark } : null;
    } finally {
      released = null;
      moving = null;
      moved();
    }
  };
  return {
    get place() {
      return place;
    },
    inUse,
    shared: stores.shared,
    bench: stores.bench,
    localOnly: () => mark,
    async hold(work) {
      while (moving) await moving;
      held += 1;
      try {
        return await work();
      } finally {
        held -= 1;
        if (held === 0) released?.();
      }
    },
    moveToBench: (next) => move('bench', next),
    moveToShared: () => move('shared', null),
    get kind() {
      return inUse().kind;
    },
    get dialect(): Dialect {
      return inUse().dialect;
    },
    get commitCanSkipDiskWait() {
      return inUse().commitCanSkipDiskWait;
    },
    get sharedByBenches() {
      return inUse().sharedByBenches;
    },
    query: <T extends Row = Row>(sql: string, params?: readonly SqlValue[]): Promise<T[]> => inUse().query<T>(sql, params),
    execute: (sql: string, params?: readonly SqlValue[]): Promise<ExecuteResult> => inUse().execute(sql, params),
    executeWithoutDiskWait: (sql: string, params?: readonly SqlValue[]) => inUse().executeWithoutDiskWait(sql, params),
    outsideWritesVersion: () => inUse().outsideWritesVersion(),
    transaction: <T>(work: (tx: StoreTransaction) => Promise<T>, options?: TransactionOptions): Promise<T> => inUse().transaction(work, options),
    notify: (channel: string, payload: string) => inUse().notify(channel, payload),
    // What other benches change is followed on the shared store, wherever this bench writes meanwhile.
    subscribe: (channel: string, handlers: SubscriptionHandlers): Promise<Subscription> => stores.shared.subscribe(channel, handlers),
    // Each store is closed by whoever opened it.
    close: async () => undefined,
  };
}

/** The engine a statement made now goes to: the printing store's choice, or the engine itself. */
export function engineInUse(engine: StoreEngine): StoreEngine {
  return isPrintingStore(engine) ? engine.inUse() : engine;
}

/** Where a statement made now goes (a plain engine has one place). */
export function placeOf(engine: StoreEngine): PrintingPlace {
  return isPrintingStore(engine) ? engine.place : 'shared';
}

function isPrintingStore(engine: StoreEngine): engine is PrintingStore {
  return typeof (engine as Partial<PrintingStore>).inUse === 'function';
}
