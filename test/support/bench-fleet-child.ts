/**
 * One bench of a warehouse fleet (test/support/bench-fleet.ts) in a process of its own: the real
 * composition root over the bench's own data folder, on the warehouse's shared store (one SQLite
 * file every bench opens, or the PostgreSQL server), with its own virtual Zebra as its printer.
 * The parent talks to it over Node's IPC channel: a call message goes through the station's
 * contract dispatcher exactly as the screen's calls do, and the answer (value or error code) goes
 * back. On its first start the bench sets itself up (test environment, its name, its printer);
 * a later start after a SIGKILL finds that set-up in its folder and only recovers.
 */
import { z } from 'zod';
import { composeStation } from '../../src/main/composition';
import { createLogger } from '../../src/main/logging/logger';
import { logStrayErrors } from '../../src/main/logging/stray-errors';
import { PostgresEngine } from '../../src/main/store/engine/postgres-engine';
import { SqliteEngine } from '../../src/main/store/engine/sqlite-engine';
import type { StoreEngine } from '../../src/main/store/engine/store-engine';
import { PrinterSchema } from '../../src/shared/contract/printers';
import { BenchCallSchema, BenchConfigSchema, type BenchMessage } from './bench-fleet-messages';
import { memoryKeyStore } from './station';
import { errorText } from '../../src/shared/error-text';

const PrintersSchema = z.object({ printers: z.array(PrinterSchema) });

function send(message: BenchMessage): void {
  // The fleet may already be gone (a benchmark's end): a floor event heard then has no one to go to.
  if (process.connected) process.send?.(message);
}

async function openStore(config: z.infer<typeof BenchConfigSchema>): Promise<StoreEngine> {
  if (config.store.kind === 'sqlite') return SqliteEngine.open(config.store.file);
  return PostgresEngine.open(
    { ...config.store.connection, tls: 'disable', applicationName: config.benchName, connectTimeoutMs: 2_000 },
    // A restarted server is found again within half a second.
    { reconnectDelayMs: 100, maxReconnectDelayMs: 500 },
  );
}

async function main(): Promise<void> {
  const config = BenchConfigSchema.parse(JSON.parse(process.env.FLEET_BENCH_CONFIG ?? '{}'));
  const logger = createLogger((line) => process.stderr.write(`[${config.benchName}] ${line}\n`), { level: 'error' });
  // As the desktop app and the web host do: a stray error is logged (the parent counts them), the bench goes on.
  logStrayErrors(logger);
  const store = await openStore(config);
  const station = await composeStation({
    dataDir: config.dataDir,
    host: 'web',
    version: '0.0.0-fleet',
    logger,
    keyStore: memoryKeyStore({ test: { key: config.apiKey, address: config.baseUrl } }),
    store: store,
    printing: {
      queueTiming: { faultPollMs: 100 },
      progressIntervalMs: 100,
      transports: { network: { queryTimeoutMs: 1_500, connectTimeoutMs: 1_000 } },
    },
    ...(config.floor
      ? {
          floor: {
            ...(config.floor.silentAfterMs ? { silentAfterMs: config.floor.silentAfterMs } : {}),
            ...(config.floor.printerCheckMs ? { printerCheckMs: config.floor.printerCheckMs } : {}),
            ...(config.floor.heartbeatMs ? { reporter: { heartbeatMs: config.floor.heartbeatMs } } : {}),
          },
        }
      : {}),
  });
  const dispatch = (name: string, input: unknown) => station.dispatcher.dispatch(name, input, { host: 'web' });

  if (station.settings.environment() !== 'test') {
    station.settings.setApiBaseUrl('test', config.baseUrl);
    station.settings.setEnvironment('test');
    station.settings.setStationName(config.benchName);
  }
  // Its own printer, found by its address: once the warehouse's printers are shared, a bench also
  // sees the other benches' printers.
  const ownPrinter = async (): Promise<string | undefined> => {
    const listed = await dispatch('printers.list', {});
    if (!listed.ok) throw new Error(`printers.list: ${listed.error.code} ${listed.error.message}`);
    const { printers } = PrintersSchema.parse(listed.value);
    return printers.find((printer) => printer.address.kind === 'network-zebra' && printer.address.host === '127.0.0.1' && printer.address.port === config.printerPort)?.id;
  };
  let printerId = await ownPrinter();
  if (!printerId) {
    const added = await dispatch('printers.add', {
      name: `${config.benchName} Zebra`,
      address: { kind: 'network-zebra', host: '127.0.0.1', port: config.printerPort },
      orientation: 'landscape',
      defaultForSingle: true,
      defaultForBundles: true,
      check: false,
    });
    if (!added.ok) throw new Error(`printers.add: ${added.error.code} ${added.error.message}`);
    printerId = await ownPrinter();
  }
  if (!printerId) throw new Error('the bench has no printer');
  if (config.floor) {
    // As the app starts: the shift begins with nobody signed in, then the packer gives their name.
    await station.start({ webhooks: false });
    await dispatch('settings.set', { operator: config.floor.operator });
  }

  const forwarded = new Set(config.forwardEvents ?? []);
  if (forwarded.size > 0) {
    station.events.subscribe((name, payload) => {
      if (forwarded.has(name)) send({ type: 'event', name, payload, at: Date.now() });
    });
  }
  process.on('message', (raw: unknown) => {
    const parsed = BenchCallSchema.safeParse(raw);
    if (!parsed.success) {
      process.stderr.write(`[${config.benchName}] refused a message that is not a call: ${parsed.error.message}\n`);
      return;
    }
    const { id, name, input } = parsed.data;
    dispatch(name, input).then(
      (result) =>
        send(result.ok ? { type: 'answer', id, ok: true, value: result.value } : { type: 'answer', id, ok: false, error: { code: result.error.code, message: result.error.message } }),
      (error: unknown) => send({ type: 'answer', id, ok: false, error: { code: 'CHILD_ERROR', message: errorText(error) } }),
    );
  });
  // The parent closing the channel is the orderly stop.
  process.on('disconnect', () => {
    void station
      .close()
      .then(() => store.close())
      .finally(() => process.exit(0));
  });
  send({ type: 'ready', printerId });
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
