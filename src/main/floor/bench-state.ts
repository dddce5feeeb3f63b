/**
 * What this bench says about itself on the floor, put together when the reporter writes: who
 * and where from the settings; its printers from what its print queues last said (or the last
 * status check), and whether another bench drives one; its runs from the journal, live ones from
 * memory; its counts and uncertain labels from the journal (one query each, on indexes of their
 * own). Nothing here runs on a scan's path: the reporter calls it off a timer.
 */
import type { Environment } from '../../shared/contract/app';
import { floorListLimit, type BenchReportData, type FloorFault, type FloorPrinterData, type FloorRunData, type FloorUncertainData } from '../../shared/contract/floor';
import type { PrinterFaultData, PrinterStateName } from '../../shared/contract/printers';
import type { RunProgressData } from '../../shared/contract/printing';
import type { PrinterRecord, PrinterRegistry } from '../printing/printers';
import type { PrinterLeases } from '../printing/printer-leases';
import type { PrintService } from '../printing/runs/print-service';
import type { RunRow } from '../printing/journal/journal-types';
import type { RunRecords } from '../printing/journal/run-records';
import type { StoreEngine } from '../store';
import { labelTarget, runTarget, type FloorStore } from './floor-store';

/** What a printer was last seen doing, from a queue's event or a status check. */
export interface SeenPrinter {
  state: PrinterStateName;
  fault: PrinterFaultData | null;
  labelsPending: number;
}

/** What the reporter hears between two reports (events of this process). */
export interface BenchObservations {
  printers: ReadonlyMap<string, SeenPrinter>;
  /** The last progress of each live run. */
  progress: ReadonlyMap<string, RunProgressData>;
  lastScanAt: string | null;
}

export interface BenchStateDeps {
  benchId: string;
  settings: { stationName(): string; operator(): string; environment(): Environment };
  /** The store the bench's journal is read in (the shared store its report goes to). */
  journal: StoreEngine;
  printers: PrinterRegistry;
  service: Pick<PrintService, 'liveRun' | 'pendingOn'>;
  /** The journal's runs: this bench's unfinished ones. */
  runs: Pick<RunRecords, 'runs'>;
  leases?: Pick<PrinterLeases, 'holder'>;
  floor: FloorStore;
  startedAt: string;
}

/** The printer state the floor shows for what the queue or a status check said. */
export function floorPrinterState(seen: SeenPrinter | undefined): { state: FloorPrinterData['state']; fault: FloorFault | null } {
  if (!seen) return { state: 'unknown', fault: null };
  switch (seen.state) {
    case 'ready':
      return { state: 'ready', fault: null };
    case 'printing':
      return { state: 'printing', fault: null };
    case 'offline':
      return { state: 'offline', fault: 'offline' };
    case 'paperOut':
      return { state: 'paused', fault: 'paper-out' };
    case 'headOpen':
      return { state: 'paused', fault: 'head-open' };
    case 'paused':
      return { state: 'paused', fault: seen.fault?.kind ?? 'paused' };
    case 'error':
      return { state: 'paused', fault: seen.fault?.kind ?? 'printer-error' };
    default:
      return { state: 'unknown', fault: null };
  }
}

/** Local midnight of the bench's clock, as the journal's ISO text. */
export function startOfDay(now: Date): string {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate()).toISOString();
}

const hourMs = 3_600_000;

export async function benchReport(deps: BenchStateDeps, seen: BenchObservations, now: Date, stoppedAt: string | null = null): Promise<BenchReportData> {
  const environment = deps.settings.environment();
  const [printers, counts, uncertain, runs, lastScan] = await Promise.all([
    benchPrinters(deps, environment, seen, now),
    labelCounts(deps, environment, now),
    uncertainLabels(deps, environment),
    unfinishedRuns(deps, environment, seen),
    // Scans since this process started are known; before them, the journal says.
    seen.lastScanAt ?? lastScanToday(deps, environment, now),
  ]);
  const actions = await deps.floor.lastActions(environment, [...runs.map((run) => runTarget(run.runId)), ...uncertain.list.map((label) => labelTarget(label.entryId))]);
  return {
    benchId: deps.benchId,
    stationName: deps.settings.stationName(),
    operator: deps.settings.operator(),
    environment,
    printers: printers.slice(0, floorListLimit),
    labelsInBuffer: printers.reduce((sum, printer) => sum + printer.inBuffer, 0),
    labelsToday: counts.today,
    labelsLastHour: counts.lastHour,
    lastScanAt: lastScan,
    uncertainCount: uncertain.count,
    uncertain: uncertain.list.map((label) => ({ ...label, lastAction: actions.get(labelTarget(label.entryId)) ?? null })),
    runs: runs.map((run) => ({ ...run, lastAction: actions.get(runTarget(run.runId)) ?? null })),
    startedAt: deps.startedAt,
    stoppedAt,
  };
}

/** The bench's printers: its defaults for scans and runs, and any printer one of its runs is on. */
async function benchPrinters(deps: BenchStateDeps, environment: Environment, seen: BenchObservations, now: Date): Promise<FloorPrinterData[]> {
  const [single, bundles] = await Promise.all([deps.printers.defaultFor(environment, 'single'), deps.printers.defaultFor(environment, 'bundles')]);
  const records = new Map<string, { printer: PrinterRecord; roles: FloorPrinterData['roles'] }>();
  if (single) records.set(single.id, { printer: single, roles: ['single'] });
  if (bundles) records.set(bundles.id, { printer: bundles, roles: [...(records.get(bundles.id)?.roles ?? []), 'bundles'] });
  for (const progress of seen.progress.values()) {
    if (records.has(progress.printerId) || !deps.service.liveRun(progress.runId)) continue;
    const printer = await deps.printers.get(environment, progress.printerId);
    if (printer) records.set(printer.id, { printer, roles: [] });
  }
  return Promise.all(
    [...records.values()].map(async ({ printer, roles }) => {
      const inBuffer = deps.service.pendingOn(printer);
      const { state, fault } = floorPrinterState(seen.printers.get(printer.id));
      const holder = inBuffer === 0 && deps.leases ? await deps.leases.holder(printer) : null;
      const elsewhere = holder && holder.bench !== deps.benchId && holder.expiresAt > now.toISOString() ? holder : null;
      return {
        printerId: printer.id,
        name: printer.name,
        // Another bench driving it says more than this bench's last look at it.
        state: elsewhere && state !== 'offline' ? 'busy' : state,
        fault: elsewhere && state !== 'offline' ? null : fault,
        busyWith: elsewhere ? { benchName: elsewhere.benchName, since: elsewhere.since } : null,
        inBuffer,
        roles,
      };
    }),
  );
}

async function labelCounts(deps: BenchStateDeps, environment: Environment, now: Date): Promise<{ today: number; lastHour: number }> {
  const [row] = await deps.journal.query<{ today: unknown; hour: unknown }>(
    `SELECT SUM(CASE WHEN state = 'printed' THEN 1 ELSE 0 END) AS today,
            SUM(CASE WHEN state = 'printed' AND printed_at >= $4 THEN 1 ELSE 0 END) AS hour
     FROM print_journal WHERE bench = $1 AND environment = $2 AND queued_at >= $3`,
    [deps.benchId, environment, startOfDay(now), new Date(now.getTime() - hourMs).toISOString()],
  );
  return { today: Number(row?.today ?? 0), lastHour: Number(row?.hour ?? 0) };
}

/** The bench's last scan today as its journal has it (a scan is a run of its own, of kind single). */
async function lastScanToday(deps: BenchStateDeps, environment: Environment, now: Date): Promise<string | null> {
  const [row] = await deps.journal.query<{ last: unknown }>(
    `SELECT max(j.queued_at) AS last FROM print_journal j JOIN print_runs r ON r.id = j.run_id
     WHERE j.bench = $1 AND j.environment = $2 AND j.queued_at >= $3 AND r.kind = 'single'`,
    [deps.benchId, environment, startOfDay(now)],
  );
  return typeof row?.last === 'string' ? row.last : null;
}

async function uncertainLabels(deps: BenchStateDeps, environment: Environment): Promise<{ count: number; list: Omit<FloorUncertainData, 'lastAction'>[] }> {
  const rows = await deps.journal.query<{ id: unknown; order_id: string | null; bundle_id: string | null; printer_id: string; uncertain_at: string | null; updated_at: string; order_ref: string | null }>(
    `SELECT j.id, j.order_id, j.bundle_id, j.printer_id, j.uncertain_at, j.updated_at, o.order_ref
     FROM print_journal j LEFT JOIN orders o ON o.environment = j.environment AND o.order_id = j.order_id
     WHERE j.environment = $1 AND j.state = 'uncertain' AND j.decided_at IS NULL AND j.bench = $2
     ORDER BY j.id`,
    [environment, deps.benchId],
  );
  const list = rows.slice(0, floorListLimit).map((row) => ({
    entryId: Number(row.id),
    orderId: row.order_id,
    orderRef: row.order_ref,
    bundleId: row.bundle_id,
    printerName: deps.printers.lastKnown(environment, row.printer_id)?.name ?? null,
    since: row.uncertain_at ?? row.updated_at,
  }));
  return { count: rows.length, list };
}

async function unfinishedRuns(deps: BenchStateDeps, environment: Environment, seen: BenchObservations): Promise<Omit<FloorRunData, 'lastAction'>[]> {
  const runs = (await deps.runs.runs(environment, { unfinished: true, limit: 200 })).filter((run) => run.bench === deps.benchId && run.kind !== 'single');
  return Promise.all(runs.slice(0, floorListLimit).map((run) => floorRun(deps, environment, run, seen)));
}

async function floorRun(deps: BenchStateDeps, environment: Environment, run: RunRow, seen: BenchObservations): Promise<Omit<FloorRunData, 'lastAction'>> {
  const live = deps.service.liveRun(run.id);
  const progress = live ? seen.progress.get(run.id) : undefined;
  const counts = progress?.counts ?? (live ? live.counts() : await storedCounts(deps.journal, run.id));
  const state = progress?.state ?? live?.state ?? run.state;
  const reason = progress ? progress.pauseReason : live ? live.pauseReason : run.pauseReason;
  return {
    runId: run.id,
    kind: run.kind,
    printerId: run.printerId,
    printerName: deps.printers.lastKnown(environment, run.printerId)?.name ?? null,
    operator: run.operator,
    state,
    pause:
      state === 'paused' && reason
        ? { by: reason.by, fault: reason.fault?.kind ?? null, lead: reason.lead ?? null, since: reason.since }
        : null,
    done: counts.sent + counts.printed + counts.uncertain,
    total: counts.total,
    printed: counts.printed,
    failed: counts.failed,
    live: live !== undefined,
  };
}

async function storedCounts(journal: StoreEngine, runId: string): Promise<{ total: number; sent: number; printed: number; uncertain: number; failed: number }> {
  const rows = await journal.query<{ state: string; count: unknown }>('SELECT state, count(*) AS count FROM print_journal WHERE run_id = $1 GROUP BY state', [runId]);
  const of = (state: string) => Number(rows.find((row) => row.state === state)?.count ?? 0);
  return { total: rows.reduce((sum, row) => sum + Number(row.count), 0), sent: of('sent'), printed: of('printed'), uncertain: of('uncertain'), failed: of('failed') };
}
