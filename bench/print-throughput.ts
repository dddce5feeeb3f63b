/**
 * A shift-start run: 1,000 labels in bundles to a virtual Zebra rated at 20 labels/s, with the
 * sandbox's rate limit on (its default 50 requests/s, burst 100). Prints the throughput as a
 * fraction of the printer's rated speed, the time the printer stood idle with a run going on, and
 * the most formats ever in its buffer.
 * Run: npx tsx bench/print-throughput.ts [labels=1000] [labelsPerSecond=20] [latencyMs=0]
 */
import { bundlesFor, startPrintBench } from './print-support';

const labels = Number(process.argv[2] ?? 1000);
const rated = Number(process.argv[3] ?? 20);
const latencyMs = Number(process.argv[4] ?? 0);

const bench = await startPrintBench({
  sandbox: { orders: Math.max(1400, Math.ceil(labels * 2.6)), rateLimit: { requestsPerSecond: 50, burst: 100 }, faults: { latencyMs } },
  zebra: { labelsPerSecond: rated },
});
const bundleIds = bundlesFor(bench.orders, labels);

let progressEvents = 0;
bench.station.events.subscribe((name) => {
  if (name === 'printing.progress') progressEvents += 1;
});
const finished = new Promise<{ counts: Record<string, number>; runId: string }>((resolve) => {
  bench.station.events.subscribe((name, payload) => {
    if (name === 'printing.finished') resolve(payload as { counts: Record<string, number>; runId: string });
  });
});

bench.zebra.resetStats();
const startedAt = Date.now();
const run = await bench.call<{ runId: string; counts: { total: number } }>('printing.printBundles', { bundleIds });
const plannedMs = Date.now() - startedAt;
const summary = await finished;
const endedAt = Date.now();
const printed = bench.zebra.printed();
const stats = bench.zebra.stats();
const first = printed[0]?.printedAt ?? startedAt;
const last = printed.at(-1)?.printedAt ?? endedAt;
const labelMs = 1000 / rated;
// From the moment the run was asked for to the last label out: what the person at the bench waits.
const wallSeconds = (last - startedAt) / 1000;
// From the first label's start to the last label out: the printer's own working time.
const printingSeconds = (last - (first - labelMs)) / 1000;

console.log(`${run.counts.total} labels in ${bundleIds.length} bundles, printer rated ${rated} labels/s, sandbox rate limit 50 requests/s (burst 100), API latency ${latencyMs} ms`);
console.log(`planned and started in ${plannedMs} ms; first label out ${((first - startedAt) / 1000).toFixed(2)} s after the request`);
console.log(`run: ${summary.counts.printed} printed, ${summary.counts.failed} failed, ${summary.counts.uncertain} uncertain`);
console.log(`throughput (request → last label): ${(labels / wallSeconds).toFixed(2)} labels/s = ${((labels / wallSeconds / rated) * 100).toFixed(1)} % of rated speed`);
console.log(`throughput (first label → last):   ${(labels / printingSeconds).toFixed(2)} labels/s = ${((labels / printingSeconds / rated) * 100).toFixed(1)} % of rated speed`);
console.log(`printer idle with the run going on: ${stats.idleMs} ms in total (${((stats.idleMs / (stats.busyMs + stats.idleMs)) * 100).toFixed(2)} % of its time), busy ${(stats.busyMs / 1000).toFixed(1)} s`);
console.log(`most formats ever in the printer's buffer: ${stats.maxFormatsInBuffer} (the station's limit: 3); reads paused for a full buffer: ${stats.readsPaused}`);
console.log(`progress events: ${progressEvents} (${(progressEvents / wallSeconds).toFixed(1)} per second)`);
await bench.close();
