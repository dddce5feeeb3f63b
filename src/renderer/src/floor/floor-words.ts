/**
 * What the Floor screen says about a bench, a printer, a run: i18n keys and their values, from
 * the bench's report. The words themselves are in the language files (floor.*).
 */
import type { FloorBenchData, FloorPrinterData, FloorRunData } from '../../../shared/contract/floor';
import { benchConcern, benchFaults } from '../../../shared/floor/floor-order';

export interface Words {
  key: string;
  values?: Record<string, string | number>;
}

export type Tone = 'danger' | 'warning' | 'neutral' | 'success';

/** The bench's one-line state, and its tone: what the lead must look at first. */
export function benchStateWords(bench: FloorBenchData, clock: (iso: string) => string): Words & { tone: Tone } {
  switch (benchConcern(bench)) {
    case 'silent':
      return { key: 'floor.state.silent', values: { time: clock(bench.heardAt) }, tone: 'danger' };
    case 'stopped':
      return { key: 'floor.state.stopped', values: { time: clock(bench.stoppedAt ?? bench.heardAt) }, tone: 'neutral' };
    case 'fault':
      return { key: `floor.fault.${benchFaults(bench)[0] ?? 'printer-error'}`, tone: 'danger' };
    case 'uncertain':
      return { key: 'floor.state.uncertain', values: { count: bench.uncertainCount }, tone: 'warning' };
    case 'paused':
      return { key: 'floor.state.paused', tone: 'warning' };
    case 'busy':
      return { key: 'floor.state.busy', tone: 'neutral' };
    case 'fine':
      return { key: bench.runs.some((run) => run.state === 'running') || bench.labelsInBuffer > 0 ? 'floor.state.printing' : 'floor.state.ready', tone: 'success' };
  }
}

export function printerWords(printer: FloorPrinterData, clock: (iso: string) => string): Words {
  if (printer.state === 'busy' && printer.busyWith) return { key: 'floor.printer.busy', values: { bench: printer.busyWith.benchName, time: clock(printer.busyWith.since) } };
  if (printer.fault && printer.state !== 'ready' && printer.state !== 'printing') return { key: `floor.fault.${printer.fault}` };
  return { key: `floor.printer.${printer.state}` };
}

export function runStateWords(run: FloorRunData, clock: (iso: string) => string): Words {
  if (run.state === 'paused' && run.pause) {
    if (run.pause.lead) return { key: 'floor.run.pausedByLead', values: { operator: run.pause.lead.operator, bench: run.pause.lead.benchName, time: clock(run.pause.since) } };
    if (run.pause.by === 'printer') return { key: `floor.fault.${run.pause.fault ?? 'printer-error'}` };
    return { key: `floor.run.pausedBy.${run.pause.by}` };
  }
  if (!run.live) return { key: 'floor.run.waiting' };
  return { key: `floor.run.state.${run.state}` };
}

/** Which of pause, resume and cancel a lead may press on this run now. */
export function runActions(run: FloorRunData): ('pause' | 'resume' | 'cancel')[] {
  if (run.state === 'running') return ['pause', 'cancel'];
  if (run.state === 'paused') return ['resume', 'cancel'];
  return [];
}
