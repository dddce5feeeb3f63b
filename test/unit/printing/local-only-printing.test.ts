/**
 * Where a print goes while the shared store comes and goes: the shared core while it answers;
 * nowhere while it is offline, until a lead allows local-only printing; the bench's own core then,
 * for scans only; and nowhere again while the store is back and the bench's local labels wait to
 * be merged (its queue still finishing a label). The store's health is driven by hand; the local
 * file is a real, empty SQLite file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEventBus } from '../../../src/main/contract/event-bus';
import { createLogger } from '../../../src/main/logging/logger';
import { createLocalOnlyPrinting } from '../../../src/main/printing/offline/local-only-printing';
import type { PrinterRecord } from '../../../src/main/printing/printers';
import type { PrintingCore } from '../../../src/main/printing/runs/printing-core';
import { SqliteEngine } from '../../../src/main/store/engine/sqlite-engine';
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

/** A printing core as the router sees it: its printers and whether its queue is idle. */
function core(name: string, lastRead = new Map<Environment, PrinterRecord[]>()) {
  let idle = true;
  const idleListeners = new Set<() => void>();
  const mirrored: Array<[Environment, number]> = [];
  const fake = {
    name,
    mirrored,
    printers: { lastRead: () => lastRead, replaceWith: async (environment: Environment, printers: readonly PrinterRecord[]) => void mirrored.push([environment, printers.length]) },
    service: {
      activity: {
        isQueueIdle: () => idle,
        onQueueIdle: (listener: () => void) => {
          idleListeners.add(listener);
          return () => idleListeners.delete(listener);
        },
      },
      recover: async () => undefined,
      close: async () => undefined,
    },
  };
  return {
    core: fake as unknown as PrintingCore & { name: string },
    mirrored,
    busy: () => {
      idle = false;
    },
    goIdle: () => {
      idle = true;
      for (const listener of [...idleListeners]) listener();
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
  const localEngine = SqliteEngine.open(join(folder, 'station.db'));
  engines.push(localEngine);
  const store = handDrivenHealth();
  const shared = core('shared', new Map([['test', [{ id: 'p-1' } as PrinterRecord]]]));
  const local = core('local');
  let built = 0;
  const marks: Array<{ reason: string; by: string } | null> = [];
  const router = createLocalOnlyPrinting({
    health: store.health,
    shared: shared.core,
    buildLocal: (localOnly) => {
      built += 1;
      marks.push(localOnly());
      return local.core;
    },
    localEngine,
    sharedEngine: localEngine,
    benchId: 'bench-1',
    operator: () => operator,
    events: createEventBus(createLogger(() => undefined, { level: 'error' })),
    logger: createLogger(() => undefined, { level: 'error' }),
    clock: () => new Date('2026-11-24T06:30:00.000Z'),
  });
  return { router, store, shared, local, built: () => built };
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

const nameOf = (printing: PrintingCore) => (printing as PrintingCore & { name: string }).name;

describe('local-only printing: where a print goes', () => {
  it('goes to the shared core while the store answers, and a lead cannot allow local-only printing then', async () => {
    const { router } = setUp();
    expect(nameOf(router.forPrinting())).toBe('shared');
    expect(nameOf(router.forBundles())).toBe('shared');
    await expect(router.allow({ reason: 'just in case' })).rejects.toMatchObject({ code: 'CONFLICT', facts: { subject: 'store-online' } });
  });

  it('is refused while offline until a lead allows it; then scans go to the bench\'s own core with the reason, bundle runs stay refused', async () => {
    const { router, store, shared, local, built } = setUp();
    store.offline();
    expect(codeAndSubject(() => router.forPrinting())).toEqual({ code: 'STORE_OFFLINE', subject: 'offline' });
    expect(codeAndSubject(() => router.forBundles())).toEqual({ code: 'STORE_OFFLINE', subject: 'offline' });
    expect(nameOf(router.forReading())).toBe('shared');

    const health = await router.allow({ reason: 'database maintenance', operator: 'Lead Kim' });
    expect(health.localPrinting).toEqual({ reason: 'database maintenance', allowedBy: 'Lead Kim', since: '2026-11-24T06:30:00.000Z', ending: false });
    expect(built()).toBe(1);
    expect(local.mirrored).toEqual([['test', 1]]);
    expect(nameOf(router.forPrinting())).toBe('local');
    expect(nameOf(router.forReading())).toBe('local');
    expect(codeAndSubject(() => router.forBundles())).toEqual({ code: 'STORE_OFFLINE', subject: 'scans-only' });
    expect(shared.mirrored).toEqual([]);

    router.end();
    expect(store.health.current().localPrinting).toBeNull();
    expect(codeAndSubject(() => router.forPrinting())).toEqual({ code: 'STORE_OFFLINE', subject: 'offline' });
  });

  it('takes the operator as the lead when none is named, and asks for a name when there is none', async () => {
    const named = setUp('Sam');
    named.store.offline();
    expect((await named.router.allow({ reason: 'network down' })).localPrinting?.allowedBy).toBe('Sam');
    const nameless = setUp('');
    nameless.store.offline();
    await expect(nameless.router.allow({ reason: 'network down' })).rejects.toMatchObject({ code: 'OPERATOR_REQUIRED', facts: { subject: 'local-printing' } });
  });

  it('refuses new prints once the store is back until the local queue has finished and its labels are merged', async () => {
    const { router, store, local } = setUp();
    store.offline();
    await router.allow({ reason: 'database maintenance', operator: 'Lead Kim' });
    local.busy();
    store.online();
    const merged = router.mergeBack();
    expect(codeAndSubject(() => router.forPrinting())).toEqual({ code: 'STORE_OFFLINE', subject: 'merging' });
    expect(store.health.current().localPrinting?.ending).toBe(true);
    // The waiting label's controls still reach the core that holds it.
    expect(nameOf(router.forReading())).toBe('local');

    local.goIdle();
    expect(await merged).toBeNull();
    expect(nameOf(router.forPrinting())).toBe('shared');
    expect(nameOf(router.forReading())).toBe('shared');
    expect(store.health.current().localPrinting).toBeNull();
  });

  it('does not hold prints when the store comes back to a bench that printed nothing locally since its start', async () => {
    const { router, store, built } = setUp();
    expect(await router.mergeBack()).toBeNull();
    store.offline();
    store.online();
    const merged = router.mergeBack();
    expect(nameOf(router.forPrinting())).toBe('shared');
    expect(await merged).toBeNull();
    expect(built()).toBe(0);
  });

  it('tells the updater that printing is quiet only once the local core is quiet too', async () => {
    const { router, store, local } = setUp();
    store.offline();
    await router.allow({ reason: 'database maintenance', operator: 'Lead Kim' });
    let heard = 0;
    router.activity.onQueueIdle(() => {
      heard += 1;
    });
    local.busy();
    expect(router.activity.isQueueIdle()).toBe(false);
    local.goIdle();
    expect(router.activity.isQueueIdle()).toBe(true);
    expect(heard).toBe(1);
  });
});
