/**
 * The CLI in a process of its own, as a person runs it next to the app: the real runCli with the
 * process's own streams and Ctrl+C (SIGINT), on the app's data folder. Only the API key comes from
 * the parent (a memory key store instead of the OS keychain). Arguments: a JSON config, then the
 * command line.
 */
import { z } from 'zod';
import { runCli } from '../../../src/main/cli/run';
import { memoryKeyStore } from '../../support/station';

const ConfigSchema = z.object({ dataDir: z.string(), apiKey: z.string(), baseUrl: z.string() });

const config = ConfigSchema.parse(JSON.parse(process.argv[2] ?? '{}'));
const stopSignal = new Promise<void>((resolve) => process.once('SIGINT', () => resolve()));

runCli(['--data-dir', config.dataDir, ...process.argv.slice(3)], {
  version: '0.0.0-test',
  io: { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin },
  stopSignal,
  stationOptions: {
    keyStore: memoryKeyStore({ test: { key: config.apiKey, address: config.baseUrl } }),
    printing: { queueTiming: { faultPollMs: 100 }, transports: { network: { queryTimeoutMs: 1500, connectTimeoutMs: 1000 } } },
  },
}).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`cli child failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
