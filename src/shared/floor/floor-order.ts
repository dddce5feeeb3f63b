/**
 * How the floor is read, the same on the screen and at the command line: which benches need the
 * lead first (faults first), and the filters by fault, by run and by operator.
 */
import type { FloorBenchData, FloorFault } from '../contract/floor';

/**
 * What a bench needs from the lead, most urgent first: it stopped answering; a printer is held by
 * a fault; labels wait for a decision; a run is paused; a printer is driven by another bench; all
 * is well; closed in order.
 */
export const benchConcerns = ['silent', 'fault', 'uncertain', 'paused', 'busy', 'fine', 'stopped'] as const;
export type BenchConcern = (typeof benchConcerns)[number];

export function benchConcern(bench: FloorBenchData): BenchConcern {
  if (bench.answering === 'silent') return 'silent';
  if (bench.answering === 'stopped') return 'stopped';
  if (benchFaults(bench).length > 0) return 'fault';
  if (bench.uncertainCount > 0) return 'uncertain';
  if (bench.runs.some((run) => run.state === 'paused')) return 'paused';
  if (bench.printers.some((printer) => printer.state === 'busy')) return 'busy';
  return 'fine';
}

/** The faults of the bench's printers, and of its paused runs (a printer not on its list still holds a run). */
export function benchFaults(bench: FloorBenchData): FloorFault[] {
  const faults = new Set<FloorFault>();
  for (const printer of bench.printers) if (printer.fault) faults.add(printer.fault);
  for (const run of bench.runs) if (run.pause?.by === 'printer' && run.pause.fault) faults.add(run.pause.fault);
  return [...faults];
}

const naturalOrder = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** Most urgent first; within a concern by station name as people number benches ("Bench 2" before "Bench 10"). */
export function orderFloor(benches: readonly FloorBenchData[]): FloorBenchData[] {
  return [...benches].sort(
    (a, b) =>
      benchConcerns.indexOf(benchConcern(a)) - benchConcerns.indexOf(benchConcern(b)) ||
      naturalOrder.compare(a.stationName, b.stationName) ||
      a.benchId.localeCompare(b.benchId),
  );
}

/** fault: any fault, a named one, or the benches not answering; run: part of a run id; operator: part of a name. */
export interface FloorFilter {
  fault?: 'any' | 'silent' | FloorFault | undefined;
  run?: string | undefined;
  operator?: string | undefined;
}

export const faultFilters = ['any', 'silent', 'paper-out', 'head-open', 'ribbon-out', 'printer-error', 'paused', 'offline'] as const;

export function filterFloor(benches: readonly FloorBenchData[], filter: FloorFilter): FloorBenchData[] {
  const run = filter.run?.trim().toLowerCase() ?? '';
  const operator = filter.operator?.trim().toLowerCase() ?? '';
  return benches.filter((bench) => {
    if (filter.fault === 'silent' && bench.answering !== 'silent') return false;
    if (filter.fault === 'any' && bench.answering !== 'silent' && benchFaults(bench).length === 0) return false;
    if (filter.fault && filter.fault !== 'any' && filter.fault !== 'silent' && !benchFaults(bench).includes(filter.fault)) return false;
    if (run !== '' && !bench.runs.some((candidate) => candidate.runId.toLowerCase().includes(run))) return false;
    if (operator !== '' && !bench.operator.toLowerCase().includes(operator) && !bench.runs.some((candidate) => candidate.operator.toLowerCase().includes(operator))) return false;
    return true;
  });
}

/** The bench a lead names at the command line: its id, its exact name, or a name given in other case. */
export function findBench(benches: readonly FloorBenchData[], name: string): FloorBenchData | { ambiguous: FloorBenchData[] } | null {
  const wanted = name.trim();
  const byId = benches.find((bench) => bench.benchId === wanted);
  if (byId) return byId;
  const exact = benches.filter((bench) => bench.stationName === wanted);
  if (exact.length === 1) return exact[0] ?? null;
  const folded = exact.length > 1 ? exact : benches.filter((bench) => bench.stationName.toLowerCase() === wanted.toLowerCase());
  if (folded.length === 1) return folded[0] ?? null;
  return folded.length > 1 ? { ambiguous: folded } : null;
}
