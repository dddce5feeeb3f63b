import { StationError } from '../../shared/errors';
import type { Handlers } from '../contract/dispatcher';
import type { Logger } from '../logging/logger';
import type { LabelPreview } from '../printing/label-preview';
import type { PrintingCore } from '../printing/runs/printing-core';
import type { StationSettings } from '../settings/station-settings';
import type { StoreHealth } from '../store/store-health';

export interface PrintingHandlerDeps {
  settings: StationSettings;
  printing: PrintingCore;
  preview: LabelPreview;
  /** Readies the current environment before a print (on the sandbox: its orders and its virtual Zebra). */
  /** Where a refused scan is written down with its outcome (code and words), for a lead reading the log later. */
  logger?: Logger;
  /** The shared store's health: while it is offline nothing is printed (the duplicate guard cannot be asked). */
  storeHealth?: Pick<StoreHealth, 'refusePrintingWhenOffline'>;
}

type PrintingCallName =
  | 'printing.print'
  | 'printing.printBundles'
  | 'printing.pause'
  | 'printing.resume'
  | 'printing.cancel'
  | 'printing.retryFailed'
  | 'printing.decide'
  | 'printing.runs'
  | 'printing.run'
  | 'printing.journal'
  | 'printing.labelDocument';

export function printingHandlers({ settings, printing, preview, logger, storeHealth }: PrintingHandlerDeps): Pick<Handlers, PrintingCallName> {
  const service = printing.service;
  return {
    'printing.print': async (input, { session }) => {
      storeHealth?.refusePrintingWhenOffline();
      await session.ready();
      try {
        return await printing.print(input);
      } catch (error) {
        if (error instanceof StationError) {
          logger?.info('scan not printed', { environment: settings.environment(), scan: input.scan.slice(0, 200), outcome: error.code, words: error.message });
        }
        throw error;
      }
    },
    'printing.printBundles': async (input, { session }) => {
      storeHealth?.refusePrintingWhenOffline();
      await session.ready();
      return printing.printBundles(input);
    },
    'printing.pause': ({ runId }) => service.pause(settings.environment(), runId, settings.operator()),
    'printing.resume': ({ runId }) => service.resume(settings.environment(), runId),
    'printing.cancel': ({ runId }) => service.cancel(settings.environment(), runId, settings.operator()),
    'printing.retryFailed': ({ runId }) => service.retryFailed(settings.environment(), runId, settings.operator()),
    'printing.decide': ({ entryId, decision, operator }) => service.decide(settings.environment(), entryId, decision, operator ?? settings.operator()),
    'printing.runs': async ({ unfinished, limit }) => ({
      runs: await service.runSummaries(settings.environment(), { ...(unfinished !== undefined ? { unfinished } : {}), ...(limit !== undefined ? { limit } : {}) }),
    }),
    'printing.run': async ({ runId }) => {
      const environment = settings.environment();
      const entries = await service.runEntries(environment, runId);
      return { run: await service.summary(runId), entries };
    },
    'printing.journal': async ({ orderId, limit }) => ({
      entries: await service.journalEntries(settings.environment(), { ...(orderId !== undefined ? { orderId } : {}), ...(limit !== undefined ? { limit } : {}) }),
    }),
    'printing.labelDocument': ({ entryId }) => preview.document(settings.environment(), entryId),
  };
}
