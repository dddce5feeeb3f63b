/**
 * The station's CLI in a process of its own, as a person runs it, with the API key of the test
 * environment held in memory instead of the keychain (the keychain is not what these tests are
 * about). argv: the key as JSON, then the CLI's own arguments. The parent may SIGKILL it.
 */
import { z } from 'zod';
import { runCli } from '../../../src/main/cli/run';
import { memoryKeyStore } from '../../support/station';
import { errorText } from '../../../src/shared/error-text';

const key = z.object({ key: z.string(), address: z.string() }).parse(JSON.parse(process.argv[2] ?? '{}'));
const stopSignal = new Promise<void>((resolve) => process.once('SIGTERM', () => resolve()));

runCli(process.argv.slice(3), {
  version: '0.0.0-test',
  io: { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin },
  stopSignal,
  stationOptions: { keyStore: memoryKeyStore({ test: key }) },
}).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${errorText(error)}\n`);
    process.exit(1);
  },
);
