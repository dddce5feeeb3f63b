import { z } from 'zod';
import { ErrorCodeSchema, ErrorFactsSchema } from '../errors';
import { EnvironmentSchema } from './app';
import { defineCall, defineEvent } from './define';
import { IndexedOrderSchema } from './orders';
import { PrinterFaultSchema, PrinterIdSchema } from './printers';
import { ShipmentSchema } from './shipping';

export const labelStates = ['queued', 'fetched', 'sent', 'printed', 'failed', 'uncertain'] as const;
export const LabelStateSchema = z.enum(labelStates);
export type LabelState = z.infer<typeof LabelStateSchema>;

/** zpl: the service's ZPL; pdf: a PDF to a PDF printer; gfa: a PDF rasterised for a Zebra. */
export const LabelFormatSchema = z.enum(['zpl', 'pdf', 'gfa']);
export type LabelFormat = z.infer<typeof LabelFormatSchema>;

export const RunIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'not a run id');
export const ReasonSchema = z.string().trim().min(1, 'say why').max(200, 'keep the reason under 200 characters');
const OperatorNameSchema = z.string().trim().min(1).max(80);

/** One label in the print journal. */
const voidMark = z
  .string()
  .nullish()
  .transform((value) => value ?? undefined)
  .optional();

/**
 * The printer may have put this label out twice: paper out, ribbon out or head open cut it short
 * while it printed, and a Zebra prints such a label again, whole, once the fault is cleared (^JZY,
 * "reprint after error", its setting at power-up). `certain`: the printer's label counter counted
 * the cut copy; `possible`: the printer could not say. The parcel gets one label; the other copy
 * (the first, cut short) is thrown away.
 */
export const SecondCopySchema = z.object({
  certainty: z.enum(['certain', 'possible']),
  fault: z.enum(['paper-out', 'head-open', 'ribbon-out']),
});
export type SecondCopyData = z.infer<typeof SecondCopySchema>;

export const JournalEntrySchema = z.object({
  id: z.number().int(),
  environment: EnvironmentSchema,
  runId: z.string().nullable(),
  /** Place in its run, from 0. */
  position: z.number().int().nullable(),
  printerId: z.string(),
  printerName: z.string().nullable(),
  operator: z.string(),
  orderId: z.string().nullable(),
  orderRef: z.string().nullable(),
  barcode: z.string().nullable(),
  recipient: z.string().nullable(),
  bundleId: z.string().nullable(),
  /** "2 of 5": position (from 1) and count within the bundle. */
  bundlePosition: z.number().int().nullable(),
  bundleCount: z.number().int().nullable(),
  format: LabelFormatSchema,
  state: LabelStateSchema,
  /** Why it failed or is uncertain; for a reprint, who asked and why. */
  reason: z.string().nullable(),
  reprintOf: z.number().int().nullable(),
  /** Who settled an uncertain label, and when. */
  decidedBy: z.string().nullable(),
  decidedAt: z.string().nullable(),
  queuedAt: z.string(),
  fetchedAt: z.string().nullable(),
  sentAt: z.string().nullable(),
  printedAt: z.string().nullable(),
  failedAt: z.string().nullable(),
  uncertainAt: z.string().nullable(),
  /**
   * Set when a lead had the service cancel the order: the label reads as voided (keep the parcel
   * off the pallet). Absent otherwise (a database NULL reads as absent, so a label not voided looks
   * the same whether it was read back or just written).
   */
  voidedAt: voidMark,
  voidedBy: voidMark,
  voidReason: voidMark,
  /** A possible or certain second copy the printer put out by itself (null: one copy). */
  secondCopy: SecondCopySchema.nullable().default(null),
});
export type JournalEntryData = z.infer<typeof JournalEntrySchema>;

export const PauseReasonSchema = z.object({
  /** printer: a fault (resumes by itself when it clears); user: someone paused; station: the station stopped mid-run; service: the Delivery API could not be reached (tried again by itself). */
  by: z.enum(['printer', 'user', 'station', 'service']),
  code: ErrorCodeSchema,
  message: z.string(),
  /** What to do about it. */
  action: z.string(),
  fault: PrinterFaultSchema.nullable(),
  since: z.string(),
  /** A lead who paused it from the floor at another bench (by: user). */
  lead: z.object({ operator: z.string(), benchName: z.string() }).nullable().optional(),
});
export type PauseReasonData = z.infer<typeof PauseReasonSchema>;

export const RunCountsSchema = z.object({
  total: z.number().int(),
  queued: z.number().int(),
  fetched: z.number().int(),
  sent: z.number().int(),
  printed: z.number().int(),
  failed: z.number().int(),
  uncertain: z.number().int(),
});
export type RunCounts = z.infer<typeof RunCountsSchema>;

/** How one bundle of a run is printed. */
export const BundlePlanSchema = z.object({
  bundleId: z.string(),
  /**
   * zpl-per-order: the order index knows the bundle's orders, so each gets its own native ZPL label;
   * pdf-raster: the bundle's PDF, page by page as ^GFA graphics; pdf: the bundle's PDFs to a PDF printer;
   * raster-per-order: the orders are known and the printer is not 203 dpi, so each order's PDF label
   * is rasterised at the printer's resolution.
   */
  route: z.enum(['zpl-per-order', 'pdf-raster', 'pdf', 'raster-per-order']),
  labels: z.number().int(),
  /** A plain sentence for the screen: "5 orders known to the station: native ZPL per order". */
  note: z.string(),
});

export const SkippedLabelSchema = z.object({
  orderId: z.string().nullable(),
  bundleId: z.string().nullable(),
  code: ErrorCodeSchema,
  /** English, for the CSV export and the CLI; the screen words the code and facts. */
  message: z.string(),
  /** What the screen says it with: orderRef, status, printedAt, bundleId… (absent on runs recorded before). */
  facts: ErrorFactsSchema.optional(),
});

export const RunKindSchema = z.enum(['single', 'bundles', 'test', 'retry']);
export const RunStateSchema = z.enum(['running', 'paused', 'cancelled', 'finished']);

export const RunSummarySchema = z.object({
  runId: z.string(),
  environment: EnvironmentSchema,
  kind: RunKindSchema,
  printerId: z.string(),
  printerName: z.string().nullable(),
  operator: z.string(),
  state: RunStateSchema,
  pauseReason: PauseReasonSchema.nullable(),
  counts: RunCountsSchema,
  reverse: z.boolean(),
  bundles: z.array(BundlePlanSchema),
  /** Left out on purpose: terminal orders, orders already printed (without a reprint), bundles that could not be planned. */
  skipped: z.array(SkippedLabelSchema),
  /** Labels that may or may not have printed: decide each with printing.decide. */
  uncertain: z.array(JournalEntrySchema),
  failed: z.array(JournalEntrySchema),
  /** Labels the printer may have put out twice (a fault cut them short; see SecondCopySchema): the parcel gets one. */
  secondCopies: z.array(JournalEntrySchema).default([]),
  /** The run this one retries or reprints from. */
  retryOf: z.string().nullable(),
  /** True while the run is paused or was interrupted and printing.resume would carry on. */
  resumable: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type RunSummaryData = z.infer<typeof RunSummarySchema>;

export const PrintedOrderSchema = z.object({
  orderId: z.string(),
  orderRef: z.string().nullable(),
  barcode: z.string().nullable(),
  recipient: z.string().nullable(),
  bundleId: z.string().nullable(),
});

export const PreviousPrintSchema = z.object({
  entryId: z.number().int(),
  state: LabelStateSchema,
  /** When it was printed (or sent, when the printer could not say it printed). */
  printedAt: z.string(),
  operator: z.string(),
  stationName: z.string(),
  printerName: z.string(),
});

export const PrintOutcomeSchema = z.discriminatedUnion('outcome', [
  z.object({
    outcome: z.literal('printed'),
    scan: z.string(),
    order: PrintedOrderSchema,
    entry: JournalEntrySchema,
    printer: z.object({ id: z.string(), name: z.string() }),
    /** True when this was an explicit reprint. */
    reprint: z.boolean(),
    /**
     * True when the printer can prove the label printed (a Zebra that answers): a printing.label
     * event says "printed" later. False for an OS queue or PDF printer: the spooler took the job and
     * the label stays "sent", since nothing can ask the printer.
     */
    proofFollows: z.boolean(),
    /** From the scan entering the station to the printer confirming it has the label (the proof that it printed follows as a printing.label event). */
    elapsedMs: z.number(),
  }),
  z.object({
    /**
     * A fault holds the label (found before it was sent, or shown as it reached the printer): it
     * prints by itself once the fault clears, or the packer cancels it with printing.cancel on the
     * run. The printing.label event for the entry says which (printed, or failed "Cancelled by …").
     */
    outcome: z.literal('waiting'),
    scan: z.string(),
    order: PrintedOrderSchema,
    runId: z.string(),
    entry: JournalEntrySchema,
    printer: z.object({ id: z.string(), name: z.string() }),
    reprint: z.boolean(),
    fault: PrinterFaultSchema,
    /** The fault and what to do, in one sentence for the bench. */
    sentence: z.string(),
    /** True when the label is already in the printer's buffer: cancelling then cannot take it back. */
    inPrinter: z.boolean(),
    elapsedMs: z.number(),
  }),
  z.object({
    outcome: z.literal('duplicate'),
    scan: z.string(),
    order: PrintedOrderSchema,
    previous: PreviousPrintSchema,
  }),
  z.object({
    /**
     * The service knows the order as `expected` (its label was printed) but this station never
     * printed it: not printed unless `reprint` says who and why (recorded as a reprint of nothing here).
     */
    outcome: z.literal('elsewhere'),
    scan: z.string(),
    order: PrintedOrderSchema,
    status: z.literal('expected'),
  }),
]);
export type PrintOutcomeData = z.infer<typeof PrintOutcomeSchema>;

/**
 * A packer's scan of a packing slip whose order waits to be shipped from the bench (imported or
 * typed in, its parcels not all created yet): nothing is printed, the screen opens the ship panel.
 */
export const ToShipAnswerSchema = z.object({
  outcome: z.literal('to-ship'),
  scan: z.string(),
  shipment: ShipmentSchema,
  /** The parcel count to offer: what a shipment already begun recorded, else the shop's, else 1. */
  parcels: z.number().int().min(1).max(50),
});
export type ToShipAnswerData = z.infer<typeof ToShipAnswerSchema>;

/** One of the orders a scan fits: what tells it apart, and what of it the scan matched. */
export const ScanCandidateSchema = IndexedOrderSchema.pick({ orderId: true, orderRef: true, barcode: true, bundleId: true, recipient: true, status: true }).extend({
  matchedBy: z.array(z.enum(['orderRef', 'barcode', 'orderId'])).min(1),
});
export type ScanCandidateData = z.infer<typeof ScanCandidateSchema>;

/**
 * A scan that fits more than one order in the station's list: nothing is printed, the screen asks
 * which order the parcel is (the first few, `more` counts the rest). The packer's choice is
 * printed with another printing.scan of that order's id.
 */
export const AmbiguousScanAnswerSchema = z.object({
  outcome: z.literal('ambiguous'),
  scan: z.string(),
  candidates: z.array(ScanCandidateSchema).min(2).max(5),
  more: z.number().int().min(0),
});
export type AmbiguousScanAnswerData = z.infer<typeof AmbiguousScanAnswerSchema>;

/** What one scan at the bench came to: printed (or one of printing.print's other answers), an order to ship, or a question which order it is. */
export const ScanAnswerSchema = z.discriminatedUnion('outcome', [...PrintOutcomeSchema.options, ToShipAnswerSchema, AmbiguousScanAnswerSchema]);
export type ScanAnswerData = z.infer<typeof ScanAnswerSchema>;

export const RunProgressSchema = z.object({
  runId: z.string(),
  kind: RunKindSchema,
  printerId: z.string(),
  state: RunStateSchema,
  pauseReason: PauseReasonSchema.nullable(),
  counts: RunCountsSchema,
  /** Labels that left the station (sent, printed or uncertain) and the total, for a progress bar. */
  done: z.number().int(),
  total: z.number().int(),
  at: z.string(),
});
export type RunProgressData = z.infer<typeof RunProgressSchema>;

export const LabelDocumentSchema = z.object({
  format: z.enum(['zpl', 'pdf']),
  base64: z.string(),
  /** The label's size: A6 is 105 × 148 mm. */
  widthMm: z.number().positive(),
  heightMm: z.number().positive(),
  /** Dots per millimetre the ZPL is laid out for (8 = 203 dpi). */
  dpmm: z.number().int().positive(),
});
export type LabelDocumentData = z.infer<typeof LabelDocumentSchema>;

const reprintInput = z.object({ reason: ReasonSchema, operator: OperatorNameSchema.optional() }).strict();

const byRun = z.object({ runId: RunIdSchema }).strict();

export const printingCalls = {
  /**
   * Scan → order → label with the printer's pinned orientation → printer → journal. Resolves once
   * the printer confirms it has the label. An order printed before comes back as outcome
   * "duplicate" and is not printed, unless `reprint` says who and why; likewise an order the
   * service knows as `expected` that this station never printed comes back as "elsewhere". A printer in a fault (known,
   * found by the status check before sending, or shown as the label arrived) answers "waiting". Errors: the scan's
   * (SCAN_INVALID, SCAN_AMBIGUOUS, ORDER_NOT_FOUND), ORDER_TERMINAL (a lead may `override` with a
   * reason), PRINTER_NOT_FOUND, PRINT_UNCERTAIN (the connection broke during the
   * label: decide it with printing.decide), and the Delivery API's codes.
   */
  'printing.print': defineCall(
    z
      .object({
        scan: z.string().max(4096),
        printerId: PrinterIdSchema.optional(),
        reprint: reprintInput.optional(),
        /** A lead's override of the refusal to print for a delivered, returned, lost or cancelled order. */
        override: reprintInput.optional(),
      })
      .strict(),
    PrintOutcomeSchema,
  ),
  /**
   * The scan screen's one call per scan: the main process decides in the same call whether the slip
   * is an order to ship (answer "to-ship", nothing printed) or a label to print (then exactly as
   * printing.print without reprint or override, with its answers and errors, except that a scan
   * fitting more than one order answers "ambiguous" with the orders to choose from instead of
   * SCAN_AMBIGUOUS). One call, so nothing waits between the scanner's Enter and the label's request.
   */
  'printing.scan': defineCall(z.object({ scan: z.string().max(4096) }).strict(), ScanAnswerSchema),
  /**
   * A scanner has begun typing at the bench: its scan follows within a blink. The printer for
   * single scans is made ready for it now (on a network Zebra: its connection opened and, when new,
   * the printer asked who it is), so the scan's label does not wait for either after the Enter.
   * `ready` is false when no printer is set for single scans or printing is not allowed now; a
   * printer that cannot be reached is found out by the scan itself. Nothing is printed or written.
   */
  'printing.prepare': defineCall(z.object({}).strict(), z.object({ ready: z.boolean() }).strict()),
  /**
   * Starts a shift-start run over bundles, in the order given (each bundle's labels in their
   * "n of m" order, or the whole run reversed). Resolves once the run is planned and started;
   * progress comes as printing.progress events and the end as printing.finished.
   */
  'printing.printBundles': defineCall(
    z
      .object({
        bundleIds: z.array(z.string().trim().min(1).max(128)).min(1).max(5000),
        printerId: PrinterIdSchema.optional(),
        reverse: z.boolean().optional(),
        /** Print orders and bundles that were printed before, too (recorded as reprints with this reason). */
        reprint: reprintInput.optional(),
        /**
         * Start although the printer reports a roll that does not fit the A6 label (without it the run
         * is refused first: CONFLICT, subject roll-does-not-fit, with what the printer reported).
         */
        acceptRoll: z.boolean().optional(),
      })
      .strict(),
    RunSummarySchema,
  ),
  /** Stops sending; labels already in the printer's buffer (at most the printer's limit) still print. */
  'printing.pause': defineCall(byRun, RunSummarySchema),
  /** Carries on from the first label not yet sent; also resumes a run the station was stopped in, and retries a printer fault now. */
  'printing.resume': defineCall(byRun, RunSummarySchema),
  /** Sends nothing more; unsent labels are marked failed ("cancelled"); labels in the printer's buffer still print. */
  'printing.cancel': defineCall(byRun, RunSummarySchema),
  /** A new run with the run's failed labels, in their order. */
  'printing.retryFailed': defineCall(byRun, RunSummarySchema),
  /**
   * Settles an uncertain label: "printed" (it came out) or "print-again" (it did not: a new run
   * prints it, linked to this entry).
   */
  'printing.decide': defineCall(
    z
      .object({
        entryId: z.number().int().positive(),
        decision: z.enum(['printed', 'print-again']),
        operator: OperatorNameSchema.optional(),
      })
      .strict(),
    z.object({ entry: JournalEntrySchema, reprintRun: RunSummarySchema.nullable() }),
  ),
  /** Runs of the current environment, newest first; `unfinished` lists those to offer for resume. */
  'printing.runs': defineCall(
    z.object({ unfinished: z.boolean().optional(), limit: z.number().int().min(1).max(500).optional() }).strict(),
    z.object({ runs: z.array(RunSummarySchema) }),
  ),
  /** One run with every label of it. */
  'printing.run': defineCall(byRun, z.object({ run: RunSummarySchema, entries: z.array(JournalEntrySchema) })),
  /** The journal, newest first: everything, or one order's labels. */
  'printing.journal': defineCall(
    z.object({ orderId: z.string().min(1).max(128).optional(), limit: z.number().int().min(1).max(1000).optional() }).strict(),
    z.object({ entries: z.array(JournalEntrySchema) }),
  ),
  /**
   * The label document of a journal entry, for a preview: from the cache of recent previews, else
   * fetched again from the Delivery API as it was printed (the order's ZPL in the printer's pinned
   * orientation; its PDF when it printed as a PDF or as an image; a bundle's PDF page). Errors:
   * INVALID_INPUT for an entry not in this environment's journal or a test print (not kept), and
   * the Delivery API's codes.
   */
  'printing.labelDocument': defineCall(z.object({ entryId: z.number().int().positive() }).strict(), LabelDocumentSchema),
};

export const printingEvents = {
  /** A run's counts and state; at most a few per second per run, and at once on a change of state. */
  'printing.progress': defineEvent(RunProgressSchema),
  /** A label changed state: every change for single prints and test prints; failures and uncertain labels of any run. */
  'printing.label': defineEvent(JournalEntrySchema),
  /** The end-of-run summary (finished or cancelled). */
  'printing.finished': defineEvent(RunSummarySchema),
};
