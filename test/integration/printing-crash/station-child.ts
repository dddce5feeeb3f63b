/**
 * The station's core in a process of its own, for the crash tests: it sets itself up on first
 * start (test environment on the sandbox, the day's orders in its index, the virtual Zebra as its
 * printer), starts the bundle run, or resumes the run a previous (killed) life left unfinished,
 * and reports on stdout: "running <runId>", then "finished <counts>". The parent kills it with
 * SIGKILL at random moments. With `scan`, it scans that instead and reports "scan-run <runId>"
 * once the scan's run is in its journal, then "scan-sent <entryId>" once the printer has the label,
 * for the parent to kill at either moment.
 */
import { z } from 'zod';
import { OrderStatusSchema } from '../../../src/shared/api/schemas';
import { BootMarkSchema } from '../../../src/main/boot-identity';
import { composeStation } from '../../../src/main/composition';
import { createLogger } from '../../../src/main/logging/logger';
import { memoryKeyStore } from '../../support/station';
import { waitForValue } from '../../support/wait-until';

const ConfigSchema = z.object({
  dataDir: z.string(),
  baseUrl: z.string(),
  apiKey: z.string(),
  printerPort: z.number().int(),
  bundleIds: z.array(z.string()),
  orders: z.array(z.object({ orderId: z.string(), orderRef: z.string(), barcode: z.string(), bundleId: z.string(), status: OrderStatusSchema })),
  scan: z.string().optional(),
  boot: BootMarkSchema.optional(),
});

async function main(): Promise<void> {
  const config = ConfigSchema.parse(JSON.parse(process.argv[2] ?? '{}'));
  const station = await composeStation({
    dataDir: config.dataDir,
    host: 'web',
    version: '0.0.0-crash-test',
    logger: createLogger((line) => process.stderr.write(`${line}\n`), { level: 'warn' }),
    keyStore: memoryKeyStore({ test: { key: config.apiKey, address: config.baseUrl } }),
    printing: { queueTiming: { faultPollMs: 100 }, progressIntervalMs: 100, ...(config.boot ? { boot: config.boot } : {}) },
  });
  const settings = station.settings;
  const { orders, printing } = station.services;

  if (settings.environment() !== 'test') {
    settings.setApiBaseUrl('test', config.baseUrl);
    settings.setEnvironment('test');
  }
  if ((await orders.count('test')) < config.orders.length) {
    await orders.transaction((tx) => orders.upsertBatch(tx, 'test', config.orders, 'import'));
  }
  if ((await printing.printers.list('test')).length === 0) {
    await printing.printers.add('test', {
      name: 'Crash Zebra',
      address: { kind: 'network-zebra', host: '127.0.0.1', port: config.printerPort },
      orientation: 'landscape',
      defaultForSingle: true,
      defaultForBundles: true,
    });
  }

  if (config.scan !== undefined) {
    void printing.print({ scan: config.scan });
    // Reports the scan's run once it is journaled, then its label once the journal says the printer
    // has it ("sent"); this life ends by the parent's kill.
    const run = await waitForValue(async () => (await printing.service.runSummaries('test', { unfinished: true }))[0], "the scan's run journaled", 60_000, 5);
    process.stdout.write(`scan-run ${run.runId}\n`);
    const sent = await waitForValue(
      async () => (await printing.journal.labels.entries(run.runId)).find((entry, index) => index === 0 && entry.state === 'sent'),
      "the scan's label sent",
      60_000,
      5,
    );
    process.stdout.write(`scan-sent ${sent.id}\n`);
    await new Promise(() => undefined);
  }

  const finished = new Promise<string>((resolve) => {
    station.events.subscribe((name, payload) => {
      if (name === 'printing.finished') resolve(JSON.stringify((payload as { counts: unknown }).counts));
    });
  });
  const unfinished = await printing.service.runSummaries('test', { unfinished: true });
  const all = await printing.service.runSummaries('test', {});
  let runId: string;
  if (unfinished[0]) {
    runId = unfinished[0].runId;
    await printing.service.resume('test', runId);
  } else if (all.length === 0) {
    runId = (await printing.printBundles({ bundleIds: config.bundleIds })).runId;
  } else {
    process.stdout.write('nothing-to-do\n');
    await station.close();
    return;
  }
  process.stdout.write(`running ${runId}\n`);
  const counts = await finished;
  process.stdout.write(`finished ${counts}\n`);
  await station.close();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`child failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
