/**
 * The lead's floor: every bench of the warehouse as it reports itself to the shared store (its
 * name, who is signed in, its printers, its runs, the labels waiting for a decision), and what a
 * lead may do there from any bench — pause, resume or cancel a run, settle an uncertain label,
 * send a shift-start run to a bench's printer. A bench on its own file sees itself alone.
 */
import { z } from 'zod';
import { StationErrorDataSchema } from '../errors';
import { EnvironmentSchema } from './app';
import { defineCall, defineEvent } from './define';
import { PrinterFaultSchema, PrinterIdSchema } from './printers';
import { PauseReasonSchema, RunIdSchema, RunKindSchema, RunStateSchema } from './printing';

const name = z.string().max(120);
const time = z.string().max(40);

/** What a lead can do on the floor. `settle-*`: an uncertain label came out, or is to be printed again. */
export const floorActions = ['pause', 'resume', 'cancel', 'settle-printed', 'settle-print-again', 'send-bundles'] as const;
export const FloorActionSchema = z.enum(floorActions);
export type FloorAction = z.infer<typeof FloorActionSchema>;

/** A lead's action as the bench that received it knows it: who, from which bench, when. */
export const FloorLeadSchema = z.object({
  commandId: z.number().int().positive(),
  action: FloorActionSchema,
  operator: name,
  benchName: name,
  at: time,
  /** done: the bench applied it; failed: the bench could not (the run was over, the label decided…); expired: it came back too late to apply it. */
  outcome: z.enum(['done', 'failed', 'expired']),
});
export type FloorLeadData = z.infer<typeof FloorLeadSchema>;

/**
 * A printer as the bench using it sees it: ready; printing (labels on their way); paused by a
 * fault (named); offline (it does not answer); busy (another bench drives it now); unknown (not
 * asked yet, or a print queue that cannot be asked).
 */
export const FloorPrinterStateSchema = z.enum(['ready', 'printing', 'paused', 'offline', 'busy', 'unknown']);
export type FloorPrinterState = z.infer<typeof FloorPrinterStateSchema>;
export const FloorFaultSchema = PrinterFaultSchema.shape.kind;
export type FloorFault = z.infer<typeof FloorFaultSchema>;

export const FloorPrinterSchema = z.object({
  printerId: PrinterIdSchema,
  name,
  state: FloorPrinterStateSchema,
  /** The fault that holds it, when paused or offline. */
  fault: FloorFaultSchema.nullable(),
  /** When state is busy: the bench driving it and since when. */
  busyWith: z.object({ benchName: name, since: time }).nullable(),
  /** Labels of this bench on their way to it: queued, being sent, or in its buffer. */
  inBuffer: z.number().int().nonnegative(),
  /** What the bench prints on it: its single scans, its shift-start runs, or a run in progress only. */
  roles: z.array(z.enum(['single', 'bundles'])),
});
export type FloorPrinterData = z.infer<typeof FloorPrinterSchema>;

export const FloorRunSchema = z.object({
  runId: RunIdSchema,
  kind: RunKindSchema,
  printerId: z.string().max(64),
  printerName: name.nullable(),
  operator: name,
  state: RunStateSchema,
  /** Why it is paused: by the printer (the fault), a user (maybe a lead from another bench), the station stopping, the service. */
  pause: z
    .object({
      by: PauseReasonSchema.shape.by,
      fault: FloorFaultSchema.nullable(),
      lead: z.object({ operator: name, benchName: name }).nullable(),
      since: time,
    })
    .nullable(),
  /** Labels that left the station (sent, printed or uncertain) and the run's total. */
  done: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  printed: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  /** False when no process of the bench prints it now (the station stopped in it: it waits for resume). */
  live: z.boolean(),
  /** The last lead's action on this run the bench applied; its id is what the next action acts after. */
  lastAction: FloorLeadSchema.nullable(),
});
export type FloorRunData = z.infer<typeof FloorRunSchema>;

export const FloorUncertainSchema = z.object({
  entryId: z.number().int().positive(),
  orderId: z.string().max(128).nullable(),
  orderRef: z.string().max(128).nullable(),
  bundleId: z.string().max(128).nullable(),
  printerName: name.nullable(),
  since: time,
  lastAction: FloorLeadSchema.nullable(),
});
export type FloorUncertainData = z.infer<typeof FloorUncertainSchema>;

/** At most this many runs and uncertain labels travel in a report; the counts say how many there are. */
export const floorListLimit = 10;

/** What a bench says about itself, written to the shared store on each change and every 10 s. */
export const BenchReportSchema = z.object({
  benchId: z.string().min(1).max(64),
  stationName: name,
  /** Who is signed in ('' when nobody is). */
  operator: name,
  environment: EnvironmentSchema,
  printers: z.array(FloorPrinterSchema).max(floorListLimit),
  /** Labels of this bench on their way to its printers. */
  labelsInBuffer: z.number().int().nonnegative(),
  /** Labels this bench printed since midnight (its own clock) and in the last hour. */
  labelsToday: z.number().int().nonnegative(),
  labelsLastHour: z.number().int().nonnegative(),
  lastScanAt: time.nullable(),
  uncertainCount: z.number().int().nonnegative(),
  uncertain: z.array(FloorUncertainSchema).max(floorListLimit),
  /** Runs not finished (shift-start runs, reprints, tests; single scans are too short to list). */
  runs: z.array(FloorRunSchema).max(floorListLimit),
  startedAt: time,
  /** Set by a bench that closed in order: it is not missing, it was closed. */
  stoppedAt: time.nullable(),
});
export type BenchReportData = z.infer<typeof BenchReportSchema>;

/**
 * A bench on the floor as a lead sees it. answering: yes; silent (no report for the stated time:
 * crashed, switched off or cut off from the store); stopped (closed in order).
 */
export const FloorBenchSchema = BenchReportSchema.extend({
  answering: z.enum(['yes', 'silent', 'stopped']),
  /** When it was last heard from (its last report or heartbeat). */
  heardAt: time,
  /** This is the bench the lead stands at. */
  self: z.boolean(),
});
export type FloorBenchData = z.infer<typeof FloorBenchSchema>;

export const FloorListSchema = z.object({
  /** warehouse: every bench of the shared store; local: this bench alone, on its own file. */
  mode: z.enum(['warehouse', 'local']),
  benchId: z.string(),
  /** After how long without a report a bench reads as not answering. */
  silentAfterMs: z.number().int().positive(),
  benches: z.array(FloorBenchSchema),
});
export type FloorListData = z.infer<typeof FloorListSchema>;

const benchRef = z.string().trim().min(1).max(64);
const operator = z.string().trim().min(1).max(80).optional();
/** The id of the last lead's action on the same run or label the lead saw (0: none): a newer one makes this action lose. */
const seen = z.number().int().nonnegative().optional();

export const FloorActInputSchema = z.discriminatedUnion('action', [
  z.object({ action: z.enum(['pause', 'resume', 'cancel']), benchId: benchRef, runId: RunIdSchema, seen, operator }).strict(),
  z.object({ action: z.enum(['settle-printed', 'settle-print-again']), benchId: benchRef, entryId: z.number().int().positive(), seen, operator }).strict(),
  z
    .object({
      action: z.literal('send-bundles'),
      benchId: benchRef,
      printerId: PrinterIdSchema,
      bundleIds: z.array(z.string().trim().min(1).max(128)).min(1).max(500),
      reverse: z.boolean().optional(),
      operator,
    })
    .strict(),
]);
export type FloorActInput = z.infer<typeof FloorActInputSchema>;

/**
 * A lead's action as the store keeps it (the floor's journal). pending: the bench has not applied
 * it yet (it did not answer within the wait); done / failed: what the bench answered.
 */
export const FloorCommandSchema = z.object({
  id: z.number().int().positive(),
  environment: EnvironmentSchema,
  benchId: z.string(),
  benchName: name,
  action: FloorActionSchema,
  /** run:<id>, label:<id> or printer:<id>. */
  target: z.string().max(200),
  operator: name,
  fromBenchName: name,
  state: z.enum(['pending', 'applying', 'done', 'failed', 'expired']),
  /** Why the bench could not apply it. */
  error: StationErrorDataSchema.nullable(),
  /** The run it started (send-bundles, settle-print-again). */
  runId: z.string().nullable(),
  createdAt: time,
  settledAt: time.nullable(),
});
export type FloorCommandData = z.infer<typeof FloorCommandSchema>;

export const floorCalls = {
  /** Every bench of the warehouse (this one alone on a bench's own file), in the order they arrived. */
  'floor.list': defineCall(z.object({}).strict(), FloorListSchema),
  /**
   * A lead acts on a bench: the action goes to that bench through the shared store, which applies
   * it with its own controls and journals who did it. Answers once the bench applied it (or after
   * a short wait, still pending). Errors: FLOOR_ACTED_FIRST (another lead acted on it first: facts
   * operator, benchName, action, since), BENCH_NOT_ANSWERING (facts benchName, since; subject 'stopped' for a bench closed in order), NOT_FOUND (no
   * such bench), OPERATOR_REQUIRED.
   */
  'floor.act': defineCall(FloorActInputSchema, FloorCommandSchema),
};

export const floorEvents = {
  /** A bench changed, was heard from after a silence, or went silent. */
  'floor.bench': defineEvent(FloorBenchSchema),
  /** A lead acted on this bench from the floor (shown at the bench: who did what from where). */
  'floor.actedHere': defineEvent(FloorCommandSchema),
};
