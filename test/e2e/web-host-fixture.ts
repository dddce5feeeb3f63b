import { test as base } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export interface WebHostProcess {
  url: string;
  launchUrl: string;
  dataDir: string;
}

/** Starts the built web host (out/main/web.js) as its own process, as `npm run web` would. */
export async function launchWebHost(extraArgs: string[] = []): Promise<WebHostProcess & { stop(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'station-e2e-'));
  const child: ChildProcess = spawn(process.execPath, ['out/main/web.js', '--data-dir', dataDir, ...extraArgs], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => (stderr += String(chunk)));
  const firstLine = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`web host exited with ${code}: ${stderr}`)));
  });
  const { url, launchUrl } = JSON.parse(firstLine) as { url: string; launchUrl: string };
  return {
    url,
    launchUrl,
    dataDir,
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const test = base.extend<{ webHost: WebHostProcess }>({
  // Playwright fixtures must destructure their dependencies; this one has none.
  // eslint-disable-next-line no-empty-pattern
  webHost: async ({}, use) => {
    const host = await launchWebHost();
    await use(host);
    await host.stop();
  },
});

export { expect } from '@playwright/test';
