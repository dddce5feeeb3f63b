/** The CLI in a process of its own on a station's data folder, as a person runs it next to the app. */
import { spawn } from 'node:child_process';
import type { RunningSandbox } from '../../../src/sandbox';
import { childScript } from '../../support/child-scripts';

/** The CLI in a process of its own on the station's data folder; Ctrl+C is a real SIGINT. */
export function startCli(sandbox: RunningSandbox, dataDir: string, argv: string[]) {
  const config = { dataDir, apiKey: sandbox.environments.test.companies[0]?.apiKey ?? '', baseUrl: sandbox.environments.test.baseUrl };
  const child = spawn(process.execPath, [childScript('test/integration/printing-queue/cli-child.ts'), JSON.stringify(config), ...argv], { stdio: ['ignore', 'pipe', 'pipe'] });
  const output = { stdout: '', stderr: '' };
  const listeners = new Set<() => void>();
  const heard = (): void => {
    for (const listener of [...listeners]) listener();
  };
  child.stdout.on('data', (chunk: Buffer) => {
    output.stdout += chunk.toString();
    heard();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output.stderr += chunk.toString();
    heard();
  });
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const saidOnStderr = (pattern: RegExp) =>
    new Promise<void>((resolve, reject) => {
      const check = (): void => {
        if (pattern.test(output.stderr)) {
          listeners.delete(check);
          resolve();
        }
      };
      listeners.add(check);
      void exit.then(() => reject(new Error(`the CLI ended without saying ${pattern}: ${output.stderr}${output.stdout}`)));
      check();
    });
  return { exit, output, pressCtrlC: () => child.kill('SIGINT'), saidOnStderr };
}

