/**
 * Where a scan's label is written while the shared store comes and goes: the shared store while it
 * answers; nothing while it is offline, until a lead allows local-only printing; the bench's own
 * file then, for scans only, each label marked with the lead's reason; and nothing again while the
 * store is back and the bench's local labels wait to be merged (a run on the bench's file still
 * finishing). The store's health is driven by hand; both stores are real SQLite files.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEventBus } from '../../../src/main/contract/event-bus';
import { createLogger } from '../../../src/main/logging/logger';
import { createLocalOnlyPrinting } from '../../../src/main/printing/offline/local-only-printing';
import type { PrinterRecord } from '../../../src/main/printing/printers';
import { SqliteEngine } from '../../../src/main/store/engine/sqlite-engine';
import type { StoreEngine } from '../../../src/main/store/engine/store-engine';
import { createStorePlace, type StorePlace } from '../../../src/main/store/store-place';
import type { StoreHealth } from '../../../src/main/store/store-health';
import type { Environment } from '../../../src/shared/contract/app';
import type { LocalPrintingData, StoreHealthData } from '../../../src/shared/contract/store';
import { StationError } from '../../../src/shared/errors';

/** A store health whose state the test sets. */
function handDrivenHealth() {
  let state: StoreHealthData = { state: 'online', since: '2026-11-24T06:00:00.000Z', problem: null, localPrinting: null };
  const listeners = new Set<(health: StoreHealthData) => void>();
  const set = (next: StoreHealthData) => {
    state = next;
    for (const listener of listeners) listener(state);
  };
  const health: StoreHealth = {
    current: () => state,
    onChange: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    report: () => undefined,
    whenOnline: () => undefined,
    setLocalPrinting: (localPrinting: LocalPrintingData | null) => set({ ...state, localPrinting }),
    close: () => undefined,
  };
  return {
    health,
    offline: () => set({ ...state, state: 'offline', since: '2026-11-24T06:28:00.000Z', problem: 'unreachable' }),
    online: () => set({ ...state, state: 'online', since: '2026-11-24T06:40:00.000Z', problem: null }),
  };
}

/** The printing of each place as local-only printing sees it: its printers, and whether runs still write to its store; and the place's moves. */
function fakeCore(place: StorePlace, stores: Record<'shared' | 'bench', StoreEngine>, lastRead: Map<Environment, PrinterRecord[]>) {
  const mirrored: Array<{ environment: Environment; printers: number; place: string }> = [];
  const busyOn = new Set<StoreEngine>();
  const ended = new Set<() => void>();
  let moves = 0;
  const { moveToBench, moveToShared } = place;
  place.moveToBench = (mark) => ((moves += 1), moveToBench(mark));
  place.moveToShared = () => ((moves += 1), moveToShared());
  const coreOn = (at: 'shared' | 'bench') => ({
    printers: {
      lastRead: () => (at === 'shared' ? lastRead : new Map()),
      replaceWith: async (environment: Environment, printers: readonly PrinterRecord[]) => void mirrored.push({ environment, printers: printers.length, place: at === place.current ? at : `${at} (the journal at ${place.current})` }),
    },
    service: {
      recover: async () => undefined,
      runsEnded: async () => {
        while (busyOn.has(stores[at])) await new Promise<void>((resolve) => ended.add(resolve));
      },
    },
  });
  return {
    cores: { shared: coreOn('shared'), bench: coreOn('bench') } as unknown as Parameters<typeof createLocalOnlyPrinting>[0]['cores'],
    mirrored,
    moves: () => moves,
    runOn: (on: StoreEngine) => busyOn.add(on),
    runEnded: (on: StoreEngine) => {
      busyOn.delete(on);
      for (const resolve of [...ended]) resolve();
      ended.clear();
    },
  };
}

const folders: string[] = [];
const engines: SqliteEngine[] = [];
afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.close();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function setUp(operator = 'Sam') {
  const folder = mkdtempSync(join(tmpdir(), 'station-local-only-'));
  folders.push(folder);
  const sharedEngine = SqliteEngine.open(join(folder, 'warehouse.db'));
  const benchEngine = SqliteEngine.open(join(folder, 'station.db'));
  engines.push(sharedEngine, benchEngine);
  const place = createStorePlace();
  const stores = { shared: sharedEngine, bench: benchEngine };
  const store = handDrivenHealth();
  const core = fakeCore(place, stores, new Map([['test', [{ id: 'p-1' } as PrinterRecord]]]));
  const router = createLocalOnlyPrinting({
    health: store.health,
    cores: core.cores,
    stores,
    place,
    benchId: 'bench-1',
    operator: () => operator,
    events: createEventBus(createLogger(() => undefined, { level: 'error' })),
    logger: createLogger(() => undefined, { level: 'error' }),
    clock: () => new Date('2026-11-24T06:30:00.000Z'),
  });
  // The engine the journal writes to now.
  const printingStore = { inUse: () => stores[place.current], localOnly: () => place.localOnly(), get place() { return place.current; } };
  return { router, store, core, printingStore, sharedEngine, benchEngine };
}

const codeAndSubject = (work: () => unknown) => {
  try {
    work();
  } catch (error) {
    if (error instanceof StationError) return { code: error.code, subject: error.facts?.subject };
    throw error;
  }
  throw new Error('it was not refused');
};

describe('local-only printing: where a scan\'s label is written', () => {
  it('is the shared store while it answers, and a lead cannot allow local-only printing then', async () => {
    const { router, printingStore, sharedEngine } = setUp();
    expect(() => router.requirePrinting()).not.toThrow();
    expect(() => router.requireBundles()).not.toThrow();
    expect(() => router.requireSharedStore()).not.toThrow();
    await expect(router.allow({ reason: 'just in case' })).rejects.toMatchObject({ code: 'CONFLICT', facts: { subject: 'store-online' } });
    expect(printingStore.inUse()).toBe(sharedEngine);
  });

  it("is nowhere while offline until a lead allows it; then the bench's own file, marked with the reason, for scans only", async () => {
    const { router, store, core, printingStore, sharedEngine, benchEngine } = setUp();
    store.offline();
    expect(codeAndSubject(() => router.requirePrinting())).toEqual({ code: 'STORE_OFFLINE', subject: 'offline' });
    expect(codeAndSubject(() => router.requireBundles())).toEqual({ code: 'STORE_OFFLINE', subject: 'offline' });
    expect(printingStore.inUse()).toBe(sharedEngine);

    const health = await router.allow({ reason: 'database maintenance', operator: 'Lead Kim' });
    expect(health.localPrinting).toEqual({ reason: 'database maintenance', allowedBy: 'Lead Kim', since: '2026-11-24T06:30:00.000Z', ending: false });
    expect(printingStore.inUse()).toBe(benchEngine);
    expect(printingStore.localOnly()).toEqual({ reason: 'database maintenance', by: 'Lead Kim' });
    // The warehouse's printers as last read are written to the bench's file, once the journal writes there.
    expect(core.mirrored).toEqual([{ environment: 'test', printers: 1, place: 'bench' }]);
    expect(core.moves()).toBe(1);
    expect(() => router.requirePrinting()).not.toThrow();
    expect(codeAndSubject(() => router.requireBundles())).toEqual({ code: 'STORE_OFFLINE', subject: 'scans-only' });
    expect(() => router.requireSharedStore()).toThrow(expect.objectContaining({ code: 'STORE_UNAVAILABLE' }));

    router.end();
    expect(store.health.current().localPrinting).toBeNull();
    expect(codeAndSubject(() => router.requirePrinting())).toEqual({ code: 'STORE_OFFLINE', subject: 'offline' });
  });

  it('takes the operator as the lead when none is named, and asks for a name when there is none', async () => {
    const named = setUp('Sam');
    named.store.offline();
    expect((await named.router.allow({ reason: 'network down' })).localPrinting?.allowedBy).toBe('Sam');
    const nameless = setUp('');
    nameless.store.offline();
    await expect(nameless.router.allow({ reason: 'network down' })).rejects.toMatchObject({ code: 'OPERATOR_REQUIRED', facts: { subject: 'local-printing' } });
    expect(nameless.printingStore.place).toBe('shared');
  });

  it("refuses new prints once the store is back until the runs on the bench's file have ended and its labels are merged", async () => {
    const { router, store, core, printingStore, sharedEngine, benchEngine } = setUp();
    store.offline();
    await router.allow({ reason: 'database maintenance', operator: 'Lead Kim' });
    core.runOn(benchEngine);
    store.online();
    const merged = router.mergeBack();
    expect(codeAndSubject(() => router.requirePrinting())).toEqual({ code: 'STORE_OFFLINE', subject: 'merging' });
    expect(codeAndSubject(() => router.requireBundles())).toEqual({ code: 'STORE_OFFLINE', subject: 'merging' });
    expect(store.health.current().localPrinting?.ending).toBe(true);
    // The waiting label's run still writes, and the screen still reads, where it began.
    expect(printingStore.inUse()).toBe(benchEngine);

    core.runEnded(benchEngine);
    expect(await merged).toBeNull();
    expect(() => router.requirePrinting()).not.toThrow();
    expect(printingStore.inUse()).toBe(sharedEngine);
    expect(printingStore.localOnly()).toBeNull();
    expect(store.health.current().localPrinting).toBeNull();
  });

  it('does not hold prints when the store comes back to a bench that printed nothing locally since its start', async () => {
    const { router, store, core, printingStore } = setUp();
    expect(await router.mergeBack()).toBeNull();
    store.offline();
    store.online();
    const merged = router.mergeBack();
    expect(() => router.requirePrinting()).not.toThrow();
    expect(await merged).toBeNull();
    expect(printingStore.place).toBe('shared');
    expect(core.moves()).toBe(0);
  });
});
