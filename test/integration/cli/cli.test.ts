import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { composeStation, type StationOptions } from '../../../src/main/composition';
import { createKeychainKeyStore } from '../../../src/main/keys/key-store';
import { runCliIn, type CliOutcome } from '../../support/cli';
import { createLogger } from '../../../src/main/logging/logger';
import { memoryKeyStore } from '../../support/station';
import { statusEvent } from '../webhooks/payloads';
import { childScript } from '../../support/child-scripts';

// The CLI as a user runs it: in-process through runCli for the quick cases, and as a real child
// process (src/main/cli/index.ts bundled, test/support/child-scripts.ts) where stdin, signals and ports matter.

let dataDir: string;

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'station-cli-'));
});
afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

async function cli(...argv: string[]): Promise<CliOutcome> {
  return cliWith({ keyStore: memoryKeyStore() }, ...argv);
}

async function cliWith(stationOptions: Partial<StationOptions>, ...argv: string[]): Promise<CliOutcome> {
  return runCliIn(dataDir, stationOptions, argv);
}

function child(args: string[], env: NodeJS.ProcessEnv = {}): { process: ChildProcessWithoutNullStreams; lines: string[]; nextLine(match: RegExp): Promise<string>; exit: Promise<number | null> } {
  const proc = spawn(process.execPath, [childScript('src/main/cli/index.ts'), '--data-dir', dataDir, ...args], { env: { ...process.env, ...env } });
  const lines: string[] = [];
  const waiting: { match: RegExp; resolve: (line: string) => void }[] = [];
  let buffered = '';
  const onText = (chunk: Buffer) => {
    buffered += chunk.toString();
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    for (const line of parts) {
      lines.push(line);
      for (const waiter of [...waiting]) {
        if (waiter.match.test(line)) {
          waiting.splice(waiting.indexOf(waiter), 1);
          waiter.resolve(line);
        }
      }
    }
  };
  proc.stdout.on('data', onText);
  proc.stderr.on('data', onText);
  const exit = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return {
    process: proc,
    lines,
    exit,
    nextLine: (match) => {
      const seen = lines.find((line) => match.test(line));
      return seen ? Promise.resolve(seen) : new Promise((resolve) => waiting.push({ match, resolve }));
    },
  };
}

describe('packing-station CLI', () => {
  it('lists its commands and refuses what it does not know', async () => {
    const help = await cli('help');
    expect(help.code).toBe(0);
    for (const command of ['lookup', 'import', 'keys', 'settings', 'webhooks', 'sandbox', 'info']) expect(help.stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
    expect(await cli('frobnicate')).toMatchObject({ code: 2, stderr: expect.stringContaining('Unknown command "frobnicate"') });
    expect(await cli('lookup')).toMatchObject({ code: 2, stderr: expect.stringContaining('Give exactly one scan') });
    expect(await cli('lookup', 'REF-1', '--remote')).toMatchObject({ code: 2, stderr: expect.stringContaining('Unknown option --remote') });
    expect(await cli('keys', 'set', '--env', 'test', '--key', 'sk_test_abc')).toMatchObject({ code: 2, stderr: expect.stringContaining('never given on the command line') });
  });

  it('imports a manifest and looks up its orders', async () => {
    expect((await cli('settings', 'set', '--env', 'test', '--operator', 'Sam')).code).toBe(0);
    const file = join(dataDir, 'today.csv');
    writeFileSync(file, 'Shipment,orderRef,barcode,status\nORD-1,REF-1,BC-1,expected\n,REF-2,BC-2,draft\nORD-3,REF-3,BC-3,cancelled\n');
    const imported = await cli('import', file, '--map', 'orderId=Shipment');
    expect(imported.code).toBe(0);
    expect(imported.stdout).toContain('today.csv: 3 rows read, 2 new orders, 0 updated, 1 with errors (test');
    expect(imported.stdout).toContain('row 3: orderId is empty');
    expect(imported.stderr).toContain('Read 3 rows (100%), 1 with errors');

    const found = await cli('lookup', ']C1BC-1');
    expect(found.code).toBe(0);
    expect(found.stdout).toContain('Order ORD-1 (test, matched by barcode)');
    expect(found.stdout).toContain('status    expected');
    expect(found.stdout).toContain('printable yes');
    const cancelled = await cli('lookup', 'REF-3', '--json');
    expect(JSON.parse(cancelled.stdout)).toMatchObject({ order: { orderId: 'ORD-3', status: 'cancelled' }, printable: { allowed: false } });

    const missing = await cli('lookup', 'REF-404', '--local');
    expect(missing).toMatchObject({ code: 1, stderr: expect.stringContaining('[ORDER_NOT_FOUND]') });
    expect(await cli('import', join(dataDir, 'nope.csv'))).toMatchObject({ code: 1, stderr: expect.stringContaining('[IMPORT_FAILED]') });
  });

  it('stores a key piped on stdin in the OS keychain, never echoing it', async () => {
    const key = `sk_test_cli_${process.pid}_0123456789`;
    // A key is kept for one address, so the address comes first.
    expect((await cli('settings', 'set', '--api-url-test', 'https://test.delivery.example')).code).toBe(0);
    const set = child(['keys', 'set', '--env', 'test']);
    set.process.stdin.end(`${key}\n`);
    expect(await set.exit).toBe(0);
    expect(set.lines.join('\n')).toContain('The test key is stored in the OS keychain.');
    // The same keychain entry, as the app and every later CLI run see it.
    const keychain = { keyStore: createKeychainKeyStore({ service: 'packing-station' }) };
    const status = await cliWith(keychain, 'keys', 'status');
    expect(JSON.parse(status.stdout)).toMatchObject({ keychain: { available: true }, environments: [{ environment: 'test', keySet: true }, { environment: 'live', keySet: false }] });
    const removed = await cliWith(keychain, 'keys', 'remove', '--env', 'test');
    expect(removed).toMatchObject({ code: 0, stdout: 'The test key was removed from the OS keychain.\n' });
    for (const output of [set.lines.join('\n'), status.stdout, status.stderr, removed.stderr]) expect(output).not.toContain(key);
  });

  it('runs a one-shot command without binding the webhook port, even with the receiver switched on', async () => {
    // The app (or another process) holds the receiver's port; a CLI command next to it must not contend for it.
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const heldPort = (holder.address() as AddressInfo).port;
    try {
      const setup = await composeStation({ dataDir, host: 'web', version: '0', logger: createLogger(() => undefined), keyStore: memoryKeyStore() });
      setup.settings.setEnvironment('test');
      setup.settings.setWebhookReceiver({ host: '127.0.0.1', port: heldPort, enabled: true });
      await setup.close();

      const listed = await cli('printers', 'list');
      expect(listed.code).toBe(0);
      expect(listed.stderr).not.toContain('webhook receiver did not start');
      expect(listed.stderr).not.toContain('EADDRINUSE');
      // The long-running hosts' start step does try the port: the same settings, started, meet the holder.
      const lines: string[] = [];
      const host = await composeStation({ dataDir, host: 'web', version: '0', logger: createLogger((line) => lines.push(line)), keyStore: memoryKeyStore() });
      try {
        await host.start({ webhooks: true });
        expect(lines.join('\n')).toContain('webhook receiver did not start');
      } finally {
        await host.close();
      }
    } finally {
      await new Promise<void>((resolve) => holder.close(() => resolve()));
    }
  });

  it('serves webhooks until stopped and files the events in the index', async () => {
    expect((await cli('settings', 'set', '--env', 'test')).code).toBe(0);
    // Without --show-addresses the secret paths are not printed (a service's journal would keep them).
    const quiet = child(['webhooks', 'serve', '--port', '0']);
    await quiet.nextLine(/^Webhook receiver listening on /);
    await quiet.nextLine(/--show-addresses/);
    quiet.process.kill('SIGTERM');
    expect(await quiet.exit).toBe(0);
    expect(quiet.lines.join('\n')).not.toMatch(/\/webhooks\/[A-Za-z0-9_-]{32,}/);
    const serve = child(['webhooks', 'serve', '--port', '0', '--show-addresses']);
    const line = await serve.nextLine(/^\s+test\s+http:/);
    const url = line.trim().split(/\s+/)[1]!;
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(statusEvent('ORD-77', 'in_transit', 'expected')) });
    expect(response.status).toBe(200);
    serve.process.kill('SIGTERM');
    expect(await serve.exit).toBe(0);
    expect(serve.lines.join('\n')).toContain('Stopped. 1 events accepted (1 applied');
    const found = await cli('lookup', 'REF-ORD-77', '--local');
    expect(found.stdout).toContain('status    in_transit');
    // Serving from the CLI does not switch the app's receiver on.
    expect(JSON.parse((await cli('settings')).stdout)).toMatchObject({ webhooks: { enabled: false } });
  });

  it('starts the embedded sandbox and describes it on its first line', async () => {
    const sandbox = child(['sandbox', '--orders', '30', '--printers', '1']);
    const first = await sandbox.nextLine(/^\{/);
    const description = JSON.parse(first) as { environments: { test: { baseUrl: string; companies: { apiKey: string }[] } }; printers: unknown[] };
    expect(description.printers).toHaveLength(1);
    const answer = await fetch(`${description.environments.test.baseUrl}/pickup-points?lat=52.37&lng=4.89&maxResults=1`, { headers: { 'api-key': description.environments.test.companies[0]!.apiKey } });
    expect(answer.status).toBe(200);
    await sandbox.nextLine(/works as .* orders today/);
    sandbox.process.kill('SIGTERM');
    expect(await sandbox.exit).toBe(0);
  });
});
