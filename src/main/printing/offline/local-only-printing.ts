/**
 * Printing while the warehouse's shared store is offline. Without the store the duplicate guard
 * cannot be asked, so the bench refuses to print (STORE_OFFLINE) until a lead allows local-only
 * printing for it, with a reason. The journal then writes to the bench's own file (the store's
 * place moves: store/store-place.ts), and calls print with the printing of that place: its
 * journal, each label marked local-only with the reason and the lead; the warehouse's printers as
 * this bench last read them; and the bench's copy of the warehouse's orders (store/order-copy.ts,
 * at most a minute old; an order id not in it is tried directly against the Delivery API). Bundle
 * runs stay refused: a run is long, resumable and owned through the shared store. A run that began
 * on the shared store keeps its place's services, so it keeps writing there.
 *
 * When the store answers again, new prints wait while the runs on the bench's file finish; its
 * labels are then merged into the shared journal (offline-merge.ts), any printed twice meanwhile
 * are reported, and the journal writes to the shared store again. A bench stopped before the merge
 * merges at its next start, once the store answers.
 */
import type { AllowLocalPrinting, LocalPrintingData, OfflineMerged, OfflineReport, StoreHealthData } from '../../../shared/contract/store';
import type { Environment } from '../../../shared/contract/app';
import { StationError } from '../../../shared/errors';
import type { EventBus } from '../../contract/event-bus';
import type { Logger } from '../../logging/logger';
import { type LocalOnlyMark, type StoreEngine, storeOfflineError, type StoreHealth, type StorePlace } from '../../store';
import type { PrintingCore } from '../printing-core';
import { mergeLocalLabels, offlineDuplicates, unmergedLabels } from './offline-merge';

export interface LocalOnlyPrintingDeps {
  health: StoreHealth;
  /** The printing of each place: the shared store's, and the bench's own file's. */
  cores: Record<'shared' | 'bench', Pick<PrintingCore, 'printers' | 'service'>>;
  /** The engine of each place. */
  stores: { shared: StoreEngine; bench: StoreEngine };
  /** Where the journal writes: the shared store, or the bench's own file while local-only printing lasts. */
  place: StorePlace;
  benchId: string;
  operator(): string;
  events: EventBus;
  logger: Logger;
  clock?: () => Date;
}

export interface LocalOnlyPrinting {
  /** Refuses (STORE_OFFLINE) a scan while the shared store is offline and no lead allowed local-only printing, or while merging. */
  requirePrinting(): void;
  /** Refuses (STORE_OFFLINE) a bundle run unless the shared store answers and nothing waits to be merged. */
  requireBundles(): void;
  /**
   * Refuses (STORE_UNAVAILABLE) a change to the printers' setup while the journal writes to the
   * bench's own file: the printers there are the warehouse's as last read, and a change would be lost.
   */
  requireSharedStore(): void;
  allow(input: AllowLocalPrinting): Promise<StoreHealthData>;
  end(): StoreHealthData;
  /** Merges what this bench printed locally; run once the store answers (and again each time it comes back). */
  mergeBack(): Promise<OfflineMerged | null>;
  report(environment: Environment, limit?: number): Promise<OfflineReport>;
}

export function createLocalOnlyPrinting(deps: LocalOnlyPrintingDeps): LocalOnlyPrinting {
  const { place, cores, stores } = deps;
  const clock = deps.clock ?? (() => new Date());
  let allowance: LocalPrintingData | null = null;
  // From the store's return until the bench's local labels are merged: they are not in the guard yet.
  let merging = false;
  // The bench's file was looked at once the store answered (at start): later returns of the store
  // have something to merge only if this process printed on it since.
  let fileChecked = false;
  let printedOnBench = false;
  let mergeDone: Promise<OfflineMerged | null> | null = null;

  const publish = () => deps.health.setLocalPrinting(allowance ? { ...allowance } : null);
  const refusal = (subject: 'offline' | 'merging' | 'scans-only') => {
    const health = deps.health.current();
    return storeOfflineError(health.since, health.problem, subject);
  };
  const moveToBench = async (mark: LocalOnlyMark | null) => {
    await place.moveToBench(mark);
    if (mark) printedOnBench = true;
  };

  const merge = async (): Promise<OfflineMerged | null> => {
    if (fileChecked && !printedOnBench) return null;
    merging = true;
    if (allowance) {
      allowance = { ...allowance, ending: true };
      publish();
    }
    let merged = false;
    try {
      // The runs on the bench's file finish there first (each writes where it began).
      await cores.bench.service.runsEnded();
      if ((await unmergedLabels(stores.bench)) === 0) {
        merged = true;
        fileChecked = true;
        return null;
      }
      // What a stop left mid-print on the bench's file is settled first (uncertain, with its reason);
      // meanwhile the screen reads the bench's journal, as it did while the labels were printed.
      if (place.current === 'shared') await moveToBench(null);
      await cores.bench.service.recover();
      const result = await mergeLocalLabels({ local: stores.bench, shared: stores.shared, benchId: deps.benchId, clock });
      merged = true;
      fileChecked = true;
      printedOnBench = false;
      deps.events.emit('store.offlineMerged', result);
      const log = result.duplicates > 0 ? deps.logger.warn.bind(deps.logger) : deps.logger.info.bind(deps.logger);
      log('local-only labels merged into the shared journal', { labels: result.labels, printedTwice: result.duplicates });
      return result;
    } finally {
      merging = false;
      // Merged: printing is the shared store's again. Cut short (the store left again): the lead's
      // permission stands, and the rest is merged the next time the store answers.
      if (merged && place.current === 'bench') await place.moveToShared();
      if (allowance?.ending) {
        allowance = merged ? null : { ...allowance, ending: false };
        publish();
      }
    }
  };

  return {
    requirePrinting() {
      if (merging) throw refusal('merging');
      if (deps.health.current().state !== 'offline') {
        // Back, with the bench's labels not merged yet (the merge starts as the store returns).
        if (place.current === 'bench') throw refusal('merging');
        return;
      }
      if (allowance && place.current === 'bench') return;
      throw refusal('offline');
    },
    requireBundles() {
      if (merging || (deps.health.current().state !== 'offline' && place.current === 'bench')) throw refusal('merging');
      if (deps.health.current().state !== 'offline') return;
      throw refusal(allowance ? 'scans-only' : 'offline');
    },
    requireSharedStore() {
      if (place.current === 'bench') {
        throw new StationError('STORE_UNAVAILABLE', "The store cannot be reached: this bench prints on its own file while the shared store is offline, and the printers are changed only there.");
      }
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
      const mark = { reason: input.reason, by };
      if (place.current === 'shared') {
        // The warehouse's printers as this bench last read them, with its own defaults, so the scan
        // prints where it would have; a bench that never read them keeps what its file had.
        const lastRead = cores.shared.printers.lastRead();
        await moveToBench(mark);
        for (const [environment, printers] of lastRead) await cores.bench.printers.replaceWith(environment, printers);
      } else await moveToBench(mark);
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
    report: async (environment, limit = 200) => ({ duplicates: await offlineDuplicates(stores.shared, environment, limit) }),
  };
}
