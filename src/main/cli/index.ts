/**
 * The station from a terminal: `npx packing-station <command>`. Each command builds the same
 * composition root as the app (see run.ts for the commands).
 */
import { version } from '../../../package.json';
import { runCli } from './run';

const stopSignal = new Promise<void>((resolve) => {
  process.once('SIGINT', () => resolve());
  process.once('SIGTERM', () => resolve());
});

runCli(process.argv.slice(2), { version, io: { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin }, stopSignal, strayErrorSource: process }).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
