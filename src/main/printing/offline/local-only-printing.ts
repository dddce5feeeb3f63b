/**
 * Printing while the warehouse's shared store is offline. Without the store the duplicate guard
 * cannot be asked, so the bench refuses to print (STORE_OFFLINE) until a lead allows local-only
 * printing for it, with a reason. Scans then print through a second printing core on the bench's
 * own file: its journal (each label marked local-only, with the reason and the lead), the
 * warehouse's printers as this bench last read them, and the bench's copy of the warehouse's
 * orders (store/order-copy.ts, at most a minute old; an order id not in it is tried directly
 * against the Delivery API). Bundle runs stay refused: a run is long, resumable and owned
 * through the shared store.
 *
 * When the store answers again, new prints wait while the local core finishes what it holds; its
 * labels are then merged into the shared journal (offline-merge.ts), any printed twice meanwhile
 * are reported, and printing goes back to the shared core. A bench stopped before the merge merges
 * at its next start, once the store answers.
 */
import type { AllowLocalPrinting, LocalPrintingData, OfflineMerged, OfflineReport, StoreHealthData } from '../../../shared/contract/store';
import type { Environment } from '../../../shared/contract/app';
import { StationError } from '../../../shared/errors';
import type { EventBus } from '../../contract/event-bus';
import type { Logger } from '../../logging/logger';
import type { StoreEngine } from '../../store/engine/store-engine';
import type { PrintActivity } from '../../updates/print-activity';
import { storeOfflineError, type StoreHealth } from '../../store/store-health';
import type { PrintingCore } from '../runs/printing-core';
import { mergeLocalLabels, offlineDuplicates, unmergedLabels } from './offline-merge';

export interface LocalOnlyPrintingDeps {
  health: StoreHealth;
  /** The printing core on the shared store. */
  shared: PrintingCore;
  /** Builds the printing core on the bench's own file; its journal marks each label with what `localOnly()` returns. */
  buildLocal(localOnly: () => { reason: string; by: string } | null): PrintingCore;
  /** The bench's own file and the shared store, for the merge. */
  localEngine: StoreEngine;
  sharedEngine: StoreEngine;
  benchId: string;
  operator(): string;
  events: EventBus;
  logger: Logger;
  clock?: () => Date;
}

export interface LocalOnlyPrinting {
  /** The core a new print goes to: shared, or local while allowed offline; STORE_OFFLINE otherwise. */
  forPrinting(): PrintingCore;
  /** The core a bundle run goes to: shared only. */
  forBundles(): PrintingCore;
  /** The core whose runs and journal the screen reads and controls: local while local-only printing lasts. */
  forReading(): PrintingCore;
  allow(input: AllowLocalPrinting): Promise<StoreHealthData>;
  end(): StoreHealthData;
  /** Merges what this bench printed locally; run once the store answers (and again each time it comes back). */
  mergeBack(): Promise<OfflineMerged | null>;
  report(environment: Environment, limit?: number): Promise<OfflineReport>;
  /** Quiet only when both cores are: the updater must not restart the station in a local-only print either. */
  readonly activity: PrintActivity;
  close(): Promise<void>;
}

export function createLocalOnlyPrinting(deps: LocalOnlyPrintingDeps): LocalOnlyPrinting {
  const clock = deps.clock ?? (() => new Date());
  let allowance: LocalPrintingData | null = null;
  let local: PrintingCore | null = null;
  // From the store's return until the bench's local labels are merged: they are not in the guard yet.
  let merging = false;
  // The bench's file was looked at once the store answered (at start): later returns of the store
  // have something to merge only if this process printed locally.
  let fileChecked = false;
  let mergeDone: Promise<OfflineMerged | null> | null = null;

  const idleListeners = new Set<() => void>();
  const activity: PrintActivity = {
    isQueueIdle: () => deps.shared.service.activity.isQueueIdle() && (local?.service.activity.isQueueIdle() ?? true),
    onQueueIdle: (listener) => {
      idleListeners.add(listener);
      return () => idleListeners.delete(listener);
    },
  };
  const notifyIdle = () => {
    if (activity.isQueueIdle()) for (const listener of [...idleListeners]) listener();
  };
  deps.shared.service.activity.onQueueIdle(notifyIdle);

  const localCore = (): PrintingCore => {
    if (local === null) {
      local = deps.buildLocal(() => (allowance ? { reason: allowance.reason, by: allowance.allowedBy } : null));
      local.service.activity.onQueueIdle(notifyIdle);
    }
    return local;
  };
  const publish = () => deps.health.setLocalPrinting(allowance ? { ...allowance } : null);
  const refusal = (subject: 'offline' | 'merging' | 'scans-only') => {
    const health = deps.health.current();
    return storeOfflineError(health.since, health.problem, subject);
  };

  const waitForLocalIdle = async (core: PrintingCore) => {
    const queues = core.service.activity;
    while (!queues.isQueueIdle()) {
      await new Promise<void>((resolve) => {
        const stop = queues.onQueueIdle(() => {
          stop();
          resolve();
        });
        if (queues.isQueueIdle()) {
          stop();
          resolve();
        }
      });
    }
  };

  const merge = async (): Promise<OfflineMerged | null> => {
    if (fileChecked && local === null) return null;
    merging = true;
    if (allowance) {
      allowance = { ...allowance, ending: true };
      publish();
    }
    let merged = false;
    try {
      if (local) await waitForLocalIdle(local);
      if ((await unmergedLabels(deps.localEngine)) === 0) {
        merged = true;
        fileChecked = true;
        return null;
      }
      // What a stop left mid-print on the bench's file is settled first (uncertain, with its reason).
      await localCore().service.recover();
      const result = await mergeLocalLabels({ local: deps.localEngine, shared: deps.sharedEngine, benchId: deps.benchId, clock });
      merged = true;
      fileChecked = true;
      deps.events.emit('store.offlineMerged', result);
      const log = result.duplicates > 0 ? deps.logger.warn.bind(deps.logger) : deps.logger.info.bind(deps.logger);
      log('local-only labels merged into the shared journal', { labels: result.labels, printedTwice: result.duplicates });
      return result;
    } finally {
      merging = false;
      // Merged: printing is the shared store's again. Cut short (the store left again): the lead's
      // permission stands, and the rest is merged the next time the store answers.
      if (allowance?.ending) {
        allowance = merged ? null : { ...allowance, ending: false };
        publish();
      }
    }
  };

  return {
    forPrinting() {
      if (merging) throw refusal('merging');
      if (deps.health.current().state !== 'offline') return deps.shared;
      if (allowance) return localCore();
      throw refusal('offline');
    },
    forBundles() {
      if (merging) throw refusal('merging');
      if (deps.health.current().state !== 'offline') return deps.shared;
      throw refusal(allowance ? 'scans-only' : 'offline');
    },
    forReading() {
      return allowance || merging ? localCore() : deps.shared;
    },
    async allow(input) {
      const health = deps.health.current();
      if (health.state !== 'offline') {
        throw new StationError('CONFLICT', 'The shared store answers: printing goes through its duplicate guard, so local-only printing is not needed.', undefined, {
          facts: { subject: 'store-online' },
        });
      }
      if (merging) throw refusal('merging');
      const by = (input.operator ?? deps.operator()).trim();
      if (by === '') {
        throw new StationError('OPERATOR_REQUIRED', 'Say who you are before you allow local-only printing: enter your name.', undefined, { facts: { subject: 'local-printing' } });
      }
      const core = localCore();
      // The warehouse's printers as this bench last read them, with its own defaults, so the scan
      // prints where it would have; a bench that never read them keeps what its file had.
      for (const [environment, printers] of deps.shared.printers.lastRead()) await core.printers.replaceWith(environment, printers);
      allowance = { reason: input.reason, allowedBy: by, since: allowance?.since ?? clock().toISOString(), ending: false };
      deps.logger.warn('local-only printing allowed while the shared store is offline', { by, reason: input.reason });
      publish();
      return deps.health.current();
    },
    end() {
      if (allowance && !allowance.ending) {
        deps.logger.info('local-only printing ended by a lead', { by: deps.operator() });
        allowance = null;
        publish();
      }
      return deps.health.current();
    },
    mergeBack() {
      mergeDone ??= merge().finally(() => {
        mergeDone = null;
      });
      return mergeDone;
    },
    report: async (environment, limit = 200) => ({ duplicates: await offlineDuplicates(deps.sharedEngine, environment, limit) }),
    activity,
    async close() {
      await local?.service.close();
    },
  };
}
