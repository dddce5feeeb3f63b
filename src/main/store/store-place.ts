/**
 * Where a bench on a warehouse's shared store writes its print journal: the shared store, or,
 * while a lead lets it print on its own while that store is offline (local-only printing,
 * printing/offline), the bench's own file. Each place has its own printing services on its own
 * engine; this says which one a call uses. The dispatcher asks it once for a call that prints or
 * reads printing (environment-session.ts, `place`) and holds it until the call has answered: a
 * move waits for the calls held where the journal was, and a call waits for a move under way, so
 * no call reads a label in one place and changes the label of the same id in the other (label ids
 * are each place's own). What it knows besides is why the journal writes to the bench's file: the
 * lead's permission, which that place's journal puts on every label written there.
 *
 * On one bench (no shared store) the journal never moves: its one place is the bench's file.
 */
import { SqliteEngine } from './engine/sqlite-engine';
import type { StoreEngine } from './engine/store-engine';
import type { StationDatabase } from './database';

/** The warehouse's shared store (on one bench: its file, the only store), or the bench's own file beside a shared store. */
export type JournalPlace = 'shared' | 'bench';

/** Why the journal writes to the bench's file: the lead's permission and its reason. */
export interface LocalOnlyMark {
  reason: string;
  by: string;
}

/** A call's place, held until `leave` (a move waits for it). */
export interface HeldPlace {
  readonly place: JournalPlace;
  leave(): void;
}

export interface StorePlace {
  /** Where the journal writes now. */
  readonly current: JournalPlace;
  /** The lead's permission while the journal writes to the bench's file; null on the shared store. */
  localOnly(): LocalOnlyMark | null;
  /** The place for one call, held until it leaves (waits for a move under way first). */
  enter(): Promise<HeldPlace>;
  /** Runs `work` at the place, held while it runs. */
  hold<T>(work: (place: JournalPlace) => Promise<T>): Promise<T>;
  /**
   * The journal writes to the bench's file from now on, each label marked with `mark`
   * (printing/offline decides when); null while the bench only settles what its file holds,
   * printing nothing new. Resolves once the calls held where the journal was have ended.
   */
  moveToBench(mark: LocalOnlyMark | null): Promise<void>;
  /** The journal writes to the shared store again (after the bench's labels were merged into it). */
  moveToShared(): Promise<void>;
}

export function createStorePlace(): StorePlace {
  let current: JournalPlace = 'shared';
  let mark: LocalOnlyMark | null = null;
  let held = 0;
  let released: (() => void) | null = null;
  let moving: Promise<void> | null = null;
  const move = async (to: JournalPlace, nextMark: LocalOnlyMark | null) => {
    while (moving) await moving;
    let moved = () => undefined as void;
    moving = new Promise<void>((resolve) => (moved = resolve));
    try {
      if (held > 0) await new Promise<void>((resolve) => (released = resolve));
      current = to;
      mark = nextMark ? { ...nextMark } : null;
    } finally {
      released = null;
      moving = null;
      moved();
    }
  };
  const take = (): HeldPlace => {
    held += 1;
    let left = false;
    return {
      place: current,
      leave() {
        if (left) return;
        left = true;
        held -= 1;
        if (held === 0) released?.();
      },
    };
  };
  return {
    get current() {
      return current;
    },
    localOnly: () => mark,
    async enter() {
      while (moving) await moving;
      return take();
    },
    async hold(work) {
      while (moving) await moving;
      const entered = take();
      try {
        return await work(entered.place);
      } finally {
        entered.leave();
      }
    },
    moveToBench: (next) => move('bench', next),
    moveToShared: () => move('shared', null),
  };
}

/**
 * The bench's own file as an engine beside a warehouse's shared store (sharing the station's
 * libsql handle, closed with it): where the bench prints while local-only printing lasts and keeps
 * its copy of the warehouse's orders. Null on one bench, whose store is its file already.
 */
export function benchFileBeside(store: StoreEngine, db: StationDatabase): StoreEngine | null {
  return store.sharedByBenches ? new SqliteEngine(db, false) : null;
}
