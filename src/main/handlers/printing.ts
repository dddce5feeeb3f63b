import { StationError } from '../../shared/errors';
import type { AmbiguousScanAnswerData } from '../../shared/contract/printing';
import type { HandlersOf } from '../contract/dispatcher';
import { AmbiguousScan } from '../orders/order-lookup';
import type { Logger } from '../logging/logger';
import type { LabelPreview } from '../printing/label-preview';
import type { LocalOnlyPrinting } from '../printing/offline/local-only-printing';
import type { PrintingCore } from '../printing/printing-core';
import type { SinglePrintInput, SlipCheck } from '../printing/single-print';
import type { StationSettings } from '../settings/station-settings';
import type { ScanToShip } from '../shipping/scan-to-ship';
import type { Environment } from '../../shared/contract/app';
import { rollSentences, type RollFit } from '../../shared/zebra/roll-and-head';
import type { printingCalls } from '../../shared/contract/printing';

export interface PrintingHandlerDeps {
  settings: StationSettings;
  /** The printing core (its journal writes to the shared store, or to the bench's own file while a lead allowed local-only printing). */
  core: PrintingCore;
  /** What may print now: refused (STORE_OFFLINE) while the shared store is offline without a lead's permission, or merging. */
  allowed: Pick<LocalOnlyPrinting, 'requirePrinting' | 'requireBundles'>;
  /** The label preview of the core's journal entries. */
  preview: LabelPreview;
  /** Where a refused scan is written down with its outcome (code and words), for a lead reading the log later. */
  logger?: Logger;
  /** Whether a scan is the slip of an order to ship from the bench (printing.scan asks it before printing). */
  scanToShip?: ScanToShip;
}


export function printingHandlers({ settings, core, allowed, preview, logger, scanToShip }: PrintingHandlerDeps): HandlersOf<typeof printingCalls> {
  const { service } = core;
  const print = async <T>(input: SinglePrintInput, slip?: SlipCheck<T>) => {
    try {
      return await (slip ? core.printScanned(input, slip) : core.print(input));
    } catch (error) {
      if (error instanceof StationError) {
        logger?.info('scan not printed', { environment: settings.environment(), scan: input.scan.slice(0, 200), outcome: error.code, words: error.message });
      }
      throw error;
    }
  };
  return {
    'printing.scan': async ({ scan }, { session }) => {
      allowed.requirePrinting();
      await session.ready();
      // Whether the scan is a slip to ship is asked while its label is fetched (printScan). A list
      // that cannot be read now (the shared store away while the bench prints locally) holds no
      // scan up: it prints, as any scan that is not a known slip.
      const slip = scanToShip ? () => scanToShip(session.environment, scan).catch(() => null) : undefined;
      try {
        return await print({ scan, environment: session.environment }, slip);
      } catch (error) {
        // More than one order by that name: the packer chooses which (printed by its order id).
        if (error instanceof AmbiguousScan) return ambiguousAnswer(error);
        throw error;
      }
    },
    'printing.prepare': async (_input, { session }) => {
      // Only a hint that a scan is coming: what refuses the scan itself (STORE_OFFLINE, no key) is
      // said when the scan comes, not here.
      try {
        allowed.requirePrinting();
        await session.ready();
      } catch (error) {
        if (error instanceof StationError) return { ready: false };
        throw error;
      }
      return { ready: await core.prepareForScan() };
    },
    'printing.print': async (input, { session }) => {
      allowed.requirePrinting();
      await session.ready();
      return print({ ...input, environment: session.environment });
    },
    'printing.printBundles': async ({ acceptRoll, ...input }, { session }) => {
      allowed.requireBundles();
      await session.ready();
      if (!acceptRoll) await refuseRollThatDoesNotFit(core, settings.environment(), input.printerId, logger);
      return core.printBundles(input);
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

/**
 * Before a shift-start run: a printer that reports a roll the A6 label does not fit (too narrow a
 * print width, labels too short) is named now, not after hundreds of wrong labels. The roll as read
 * on the printer's connection (status/roll-watch.ts), or read now while nothing of ours is on its
 * way to it; a printer that cannot say, or cannot be reached, is left to the run.
 */
async function refuseRollThatDoesNotFit(core: PrintingCore, environment: Environment, printerId: string | undefined, logger: Logger | undefined): Promise<void> {
  const printer = await core.printers.choose(environment, 'bundles', printerId);
  const fit = (await core.service.rolls.current(printer))?.fit;
  if (fit?.fits !== false) return;
  const issue = fit.issues[0] as RollFit['issues'][number];
  logger?.warn('the roll does not fit the label; the run is not started', { printer: printer.name, issues: fit.issues });
  throw new StationError('CONFLICT', `${printer.name}: the roll does not fit the label. ${rollSentences(fit).join(' ')} Load A6 labels (105 × 148 mm) and calibrate the printer, or start the run anyway.`, undefined, {
    facts: { subject: 'roll-does-not-fit', printerName: printer.name, issue: issue.issue, printerMm: issue.printerMm, labelMm: issue.labelMm },
  });
}

/**
 * How many of the orders an ambiguous scan fits the scan screen offers: as many as its panel shows
 * whole at 1024×768 (two is the usual case); the rest are counted, and their parcel barcodes tell
 * them apart.
 */
const maxChoicesOffered = 3;

/** The orders an ambiguous scan fits, as the scan screen offers them. */
function ambiguousAnswer(error: AmbiguousScan): AmbiguousScanAnswerData {
  const shown = error.matches.slice(0, maxChoicesOffered);
  return {
    outcome: 'ambiguous',
    scan: error.scan,
    candidates: shown.map(({ order, matchedBy }) => ({
      orderId: order.orderId,
      orderRef: order.orderRef,
      barcode: order.barcode,
      bundleId: order.bundleId,
      recipient: order.recipient,
      status: order.status,
      matchedBy,
    })),
    more: error.matches.length - shown.length,
  };
}
