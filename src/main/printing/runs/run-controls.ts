/**
 * The user's controls over runs: pause, resume (also a run the station was stopped in, rebuilt
 * from the journal), cancel, print the failed labels again, and settle an uncertain label.
 */
import type { Environment } from '../../../shared/contract/app';
import type { JournalEntryData, RunSummaryData } from '../../../shared/contract/printing';
import { StationError } from '../../../shared/errors';
import type { EventBus } from '../../contract/event-bus';
import type { JournalRow, NewLabel, RunOptions, RunRow } from '../journal/journal-types';
import { emptyRunOptions } from '../journal/journal-rows';
import type { LabelRecords } from '../journal/label-records';
import type { RunRecords } from '../journal/run-records';
import type { PrinterRecord, PrinterRegistry } from '../printers';
import type { FloorLead, PrintRun } from './print-run';
import type { ShiftRun } from './shift-run';
import type { RunOwnership } from './run-ownership';
import type { RunReadModels } from './run-read-models';

export interface RunControlDeps {
  /** The journal (PrintJournal): its runs' and labels' records. */
  journal: { readonly runRecords: RunRecords; readonly labels: LabelRecords };
  printers: PrinterRegistry;
  /** Takes the printer's lease before a run is restarted or launched on it (print-service.ts claimPrinter). */
  claim(printer: PrinterRecord): Promise<void>;
  events: EventBus;
  ownership: RunOwnership;
  read: RunReadModels;
  liveRun(runId: string): PrintRun | undefined;
  /** A new run of these labels, started. */
  launch(input: { environment: Environment; kind: 'retry'; printer: PrinterRecord; operator: string; options: RunOptions; labels: NewLabel[] }): Promise<ShiftRun>;
  /** A run the station was stopped in, rebuilt from the journal and started. */
  restart(run: RunRow, entries: JournalRow[], printer: PrinterRecord): Promise<PrintRun>;
}

export class RunControls {
  constructor(private readonly deps: RunControlDeps) {}

  async pause(environment: Environment, runId: string, operator: string, lead: FloorLead | null = null): Promise<RunSummaryData> {
    const record = await this.deps.read.requireRun(environment, runId);
    const live = this.deps.liveRun(runId);
    if (live) {
      live.pause(operator, lead);
      await live.journalled();
    }
    // Otherwise the station was stopped in it: it is paused already and waits for resume.
    else this.deps.ownership.requireOrphan(record);
    return this.deps.read.summary(runId);
  }

  async resume(environment: Environment, runId: string): Promise<RunSummaryData> {
    const record = await this.deps.read.requireRun(environment, runId);
    const live = this.deps.liveRun(runId);
    if (live) {
      const printer = await this.deps.printers.get(environment, record.printerId);
      if (printer) await this.deps.claim(printer);
      live.resume();
      await live.journalled();
      return this.deps.read.summary(runId);
    }
    this.deps.ownership.requireOrphan(record);
    // A run the station was stopped in: rebuilt from the journal, carrying on from the first label not sent.
    const printer = await this.deps.printers.get(environment, record.printerId);
    if (!printer) {
      throw new StationError('PRINTER_NOT_FOUND', `The printer of this run is no longer set up. Add it again, or cancel the run.`);
    }
    await this.deps.claim(printer);
    // Taken over first (one bench wins), then what the earlier owner left mid-send is settled.
    const options = await this.deps.ownership.takeOver(record);
    await this.deps.ownership.recover((run) => run.id === runId);
    const run = await this.deps.restart({ ...(await this.deps.journal.runRecords.requireRun(runId)), options }, await this.deps.journal.labels.entries(runId), printer);
    run.resume();
    await run.journalled();
    return this.deps.read.summary(runId);
  }

  async cancel(environment: Environment, runId: string, operator: string): Promise<RunSummaryData> {
    const record = await this.deps.read.requireRun(environment, runId);
    const live = this.deps.liveRun(runId);
    if (live) {
      live.cancel(operator);
      await live.journalled();
      return this.deps.read.summary(runId);
    }
    await this.deps.ownership.takeOver(record);
    await this.deps.ownership.recover((run) => run.id === runId);
    const reason = operator ? `Cancelled by ${operator} before it was sent.` : 'Cancelled before it was sent.';
    await this.deps.journal.labels.failUnsent(runId, reason);
    await this.deps.journal.runRecords.finishRun(runId, 'cancelled');
    const summary = await this.deps.read.summary(runId);
    this.deps.events.emit('printing.finished', summary);
    return summary;
  }

  /** A new run with the failed labels of a run, in their order. */
  async retryFailed(environment: Environment, runId: string, operator: string): Promise<RunSummaryData> {
    const record = await this.deps.read.requireRun(environment, runId);
    const failed = (await this.deps.journal.labels.entries(runId)).filter((entry) => entry.state === 'failed' && entry.decidedAt === null);
    if (failed.length === 0) throw new StationError('CONFLICT', 'This run has no failed labels to print again.', undefined, { facts: { subject: 'no-failed', id: runId } });
    const printer = await this.deps.printers.get(environment, record.printerId);
    if (!printer) throw new StationError('PRINTER_NOT_FOUND', 'The printer of this run is no longer set up. Choose another printer and print the bundles again.');
    await this.deps.claim(printer);
    const run = await this.deps.launch({
      environment,
      kind: 'retry',
      printer,
      operator,
      options: { ...emptyRunOptions(), retryOf: runId, reverse: record.options.reverse },
      labels: failed.map((entry) => ({
        orderId: entry.orderId,
        bundleId: entry.bundleId,
        bundlePosition: entry.bundlePosition,
        bundleCount: entry.bundleCount,
        format: entry.format === 'gfa' && entry.orderId !== null ? 'zpl' : entry.format,
      })),
    });
    return this.deps.read.summary(run.runId);
  }

  /** Settles an uncertain label; "print-again" starts a run that prints it, linked to it. */
  async decide(environment: Environment, entryId: number, decision: 'printed' | 'print-again', operator: string): Promise<{ entry: JournalEntryData; reprintRun: RunSummaryData | null }> {
    const before = await this.deps.journal.labels.entry(entryId);
    if (!before || before.environment !== environment) {
      throw new StationError('NOT_FOUND', `There is no label ${entryId} in the journal of this environment.`, undefined, { facts: { subject: 'label', id: entryId } });
    }
    const after = await this.deps.journal.labels.decide(entryId, decision, operator);
    if (!after) {
      throw new StationError('CONFLICT', `Label ${entryId} is ${before.decidedAt ? 'already decided' : before.state}, not an uncertain label waiting for a decision.`, undefined, {
        facts: { subject: 'label-decided', id: entryId, state: before.decidedAt ? 'decided' : before.state },
      });
    }
    const entry = await this.deps.read.entryData(after);
    this.deps.events.emit('printing.label', entry);
    let reprintRun: RunSummaryData | null = null;
    if (decision === 'print-again') {
      const printer = await this.deps.printers.get(environment, after.printerId);
      if (!printer) throw new StationError('PRINTER_NOT_FOUND', 'The printer of this label is no longer set up; print the order again from the scan screen.');
      await this.deps.claim(printer);
      const run = await this.deps.launch({
        environment,
        kind: 'retry',
        printer,
        operator,
        options: { ...emptyRunOptions(), retryOf: after.runId, reprint: { operator, reason: 'uncertain label printed again' } },
        labels: [
          {
            orderId: after.orderId,
            bundleId: after.bundleId,
            bundlePosition: after.bundlePosition,
            bundleCount: after.bundleCount,
            format: after.format === 'gfa' && after.orderId !== null ? 'zpl' : after.format,
            reprintOf: after.id,
            reason: `Printed again: ${operator} decided the uncertain label ${after.id} did not print.`,
          },
        ],
      });
      reprintRun = await this.deps.read.summary(run.runId);
    }
    return { entry, reprintRun };
  }
}
