/**
 * `packing-station floor`: the benches of the warehouse as the lead's Floor screen lists them
 * (faults first; the same filters), once or as they change (`--watch`), and a lead's pause,
 * resume or cancel of a run at a bench named by its name or id.
 */
import type { FloorBenchData, FloorRunData } from '../../../shared/contract/floor';
import { benchFaults, faultFilters, filterFloor, findBench, orderFloor, type FloorFilter } from '../../../shared/floor/floor-order';
import { expectOnly, option } from '../args';
import { exitCodes, UsageError, type CliCommand, type CliContext } from '../command';
import { json } from '../output';
import { stationCalls } from '../station-calls';

const actions = ['pause', 'resume', 'cancel'] as const;
type RunAction = (typeof actions)[number];

const clock = (iso: string | null): string => (iso ? new Date(iso).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' }) : '—');

/** A bench in a few lines, as the screen's row says it. */
export function benchLines(bench: FloorBenchData): string[] {
  const who = bench.operator ? ` (${bench.operator})` : ' (nobody signed in)';
  const head = `${bench.stationName}${who}${bench.self ? ' — this bench' : ''} · ${bench.environment}`;
  if (bench.answering === 'silent') return [`${head} — NOT ANSWERING since ${clock(bench.heardAt)}`];
  if (bench.answering === 'stopped') return [`${head} — closed at ${clock(bench.stoppedAt)}`];
  const faults = benchFaults(bench);
  const lines = [
    `${head}${faults.length > 0 ? ` — ${faults.map((fault) => fault.toUpperCase()).join(', ')}` : ''} · ${bench.labelsToday} today, ${bench.labelsLastHour} in the last hour · ${bench.labelsInBuffer} in the buffer · last scan ${clock(bench.lastScanAt)}`,
  ];
  for (const printer of bench.printers) {
    const state =
      printer.state === 'busy' && printer.busyWith
        ? `busy at ${printer.busyWith.benchName} since ${clock(printer.busyWith.since)}`
        : printer.fault
          ? `${printer.state} (${printer.fault})`
          : printer.state;
    lines.push(`  printer ${printer.name}: ${state}${printer.inBuffer > 0 ? `, ${printer.inBuffer} on the way` : ''}`);
  }
  for (const run of bench.runs) lines.push(`  run ${run.runId} (${run.kind}, ${run.operator}) on ${run.printerName ?? run.printerId}: ${runState(run)}, ${run.done} of ${run.total}`);
  for (const label of bench.uncertain) lines.push(`  uncertain label ${label.entryId}: ${label.orderRef ?? label.orderId ?? label.bundleId ?? '?'} on ${label.printerName ?? '?'} since ${clock(label.since)}`);
  if (bench.uncertainCount > bench.uncertain.length) lines.push(`  … ${bench.uncertainCount - bench.uncertain.length} more uncertain labels`);
  return lines;
}

function runState(run: FloorRunData): string {
  if (run.state !== 'paused' || !run.pause) return run.live ? run.state : `${run.state} (waiting for resume)`;
  if (run.pause.lead) return `paused by ${run.pause.lead.operator} at ${run.pause.lead.benchName}`;
  if (run.pause.by === 'printer') return `paused: ${run.pause.fault ?? 'printer fault'}`;
  return `paused (${run.pause.by})`;
}

function filterFrom(context: CliContext): FloorFilter {
  const fault = option(context.args, 'fault');
  if (fault !== undefined && !(faultFilters as readonly string[]).includes(fault)) throw new UsageError(`--fault is one of ${faultFilters.join(', ')}.`);
  return { fault: fault as FloorFilter['fault'], run: option(context.args, 'run'), operator: option(context.args, 'operator') };
}

export const floorCommand: CliCommand = {
  name: 'floor',
  summary: "The lead's floor: every bench, its printers, runs and labels waiting; pause, resume or cancel a run at a bench",
  usage: [
    'floor [--json] [--watch] [--fault <kind>] [--run <id>] [--operator <name>]',
    'floor pause|resume|cancel <bench> <run> [--operator <name>] [--json]',
    '  --json      the floor (or the action\'s answer) as JSON; with --watch one JSON line per change',
    '  --watch     print each change as it arrives, until Ctrl+C',
    `  --fault     only benches with this fault: ${faultFilters.join(', ')}`,
    '  --run       only benches with a run whose id contains this',
    '  --operator  only benches where this person is signed in or runs a run; for an action, the lead acting (default: the operator in the settings)',
    '<bench> is the bench\'s name (or id) as the floor lists it; <run> the run\'s id or its first characters.',
  ].join('\n'),
  valueOptions: ['fault', 'run', 'operator'],
  async run(context) {
    const [first, ...rest] = context.args.positionals;
    if (first !== undefined) {
      if (!(actions as readonly string[]).includes(first)) throw new UsageError(`Unknown floor action "${first}": pause, resume or cancel.`);
      expectOnly(context.args, { flags: ['json'], options: ['operator'] });
      const [bench, run, ...extra] = rest;
      if (bench === undefined || run === undefined || extra.length > 0) throw new UsageError(`Give the bench and the run: floor ${first} <bench> <run>.`);
      return act(context, first as RunAction, bench, run);
    }
    expectOnly(context.args, { flags: ['json', 'watch'], options: ['fault', 'run', 'operator'] });
    return list(context, filterFrom(context));
  },
};

async function list(context: CliContext, filter: FloorFilter): Promise<number> {
  const station = await context.openStation();
  const calls = stationCalls(context, station);
  const asJson = context.args.flags.has('json');
  const watching = context.args.flags.has('watch');
  // Events are heard from before the floor is read, so no change falls between the two.
  const heard: FloorBenchData[] = [];
  let onBench: ((bench: FloorBenchData) => void) | null = null;
  const unsubscribe = calls.on('floor.bench', (bench) => {
    if (onBench) onBench(bench);
    else heard.push(bench);
  });
  try {
    const followed = watching ? await station.host.watchFloor() : false;
    const floor = await calls.call('floor.list', {});
    if (!floor) return exitCodes.failed;
    const shown = orderFloor(filterFloor(floor.benches, filter));
    if (asJson && !watching) context.print(json({ ...floor, benches: shown }));
    else if (asJson) for (const bench of shown) context.print(JSON.stringify(bench));
    else {
      if (floor.mode === 'local') context.print('This bench works on its own file: the floor is this bench alone. Join the warehouse store with `packing-station settings set store postgres://…`.');
      if (shown.length === 0) context.print(floor.benches.length === 0 ? 'No bench reports to the floor yet.' : 'No bench matches.');
      for (const bench of shown) for (const line of benchLines(bench)) context.print(line);
    }
    if (!watching) return exitCodes.ok;
    if (!followed) {
      context.warn('--watch follows a warehouse store; this bench works on its own file.');
      return exitCodes.ok;
    }
    const show = (bench: FloorBenchData) => {
      if (filterFloor([bench], filter).length === 0) return;
      if (asJson) context.print(JSON.stringify(bench));
      else for (const line of benchLines(bench)) context.print(`${clock(new Date().toISOString())} ${line}`);
    };
    for (const bench of heard) show(bench);
    onBench = show;
    await context.stopped();
    return exitCodes.ok;
  } finally {
    unsubscribe();
  }
}

async function act(context: CliContext, action: RunAction, benchName: string, runText: string): Promise<number> {
  const calls = stationCalls(context, await context.openStation());
  const floor = await calls.call('floor.list', {});
  if (!floor) return exitCodes.failed;
  const bench = findBench(floor.benches, benchName);
  if (bench === null) {
    context.warn(`No bench "${benchName}" reports to the floor. Benches: ${floor.benches.map((candidate) => candidate.stationName).join(', ') || 'none'}.`);
    return exitCodes.failed;
  }
  if ('ambiguous' in bench) {
    context.warn(`${bench.ambiguous.length} benches are called "${benchName}": name one by its id (${bench.ambiguous.map((candidate) => candidate.benchId).join(', ')}).`);
    return exitCodes.failed;
  }
  const runs = bench.runs.filter((run) => run.runId === runText || run.runId.startsWith(runText));
  const run = runs.length === 1 ? runs[0] : bench.runs.find((candidate) => candidate.runId === runText);
  if (!run) {
    context.warn(
      runs.length > 1
        ? `"${runText}" starts ${runs.length} runs at ${bench.stationName}: give more of the id.`
        : `${bench.stationName} has no unfinished run "${runText}"${bench.runs.length > 0 ? ` (its runs: ${bench.runs.map((candidate) => candidate.runId).join(', ')})` : ''}.`,
    );
    return exitCodes.failed;
  }
  const operator = option(context.args, 'operator');
  const answer = await calls.call('floor.act', { action, benchId: bench.benchId, runId: run.runId, seen: run.lastAction?.commandId ?? 0, ...(operator ? { operator } : {}) });
  if (!answer) return exitCodes.failed;
  if (context.args.flags.has('json')) context.print(json(answer));
  else if (answer.state === 'done') context.print(`${bench.stationName}: run ${run.runId} ${action === 'pause' ? 'paused' : action === 'resume' ? 'resumed' : 'cancelled'} by ${answer.operator} (from ${answer.fromBenchName}).`);
  else context.print(`Sent to ${bench.stationName} (action ${answer.id}); it has not confirmed yet (${answer.state}).`);
  return answer.state === 'done' ? exitCodes.ok : exitCodes.unsettled;
}
