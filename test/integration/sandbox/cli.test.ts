import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { connect } from 'node:net';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { call } from './harness';
import { childScript } from '../../support/child-scripts';

function runCli(args: string[]): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [childScript('src/sandbox/cli.ts'), ...args], { cwd: process.cwd(), stdio: 'pipe' });
}

function firstLine(child: ChildProcessWithoutNullStreams): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`exited with ${code} before printing`)));
  });
}

const exited = (child: ChildProcessWithoutNullStreams) =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));

const portClosed = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });

describe('the sandbox CLI', () => {
  it('prints one JSON object as its first line, serves it, and stops cleanly on SIGTERM', async () => {
    const child = runCli(['--orders', '20', '--pickup-points', '200', '--printers', '2', '--label-delay', '0']);
    const stderr: Buffer[] = [];
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    try {
      const line = await firstLine(child);
      const description = JSON.parse(line);
      expect(Object.keys(description)).toEqual(['environments', 'printers', 'control']);
      for (const env of ['test', 'live']) {
        const environment = description.environments[env];
        expect(environment.baseUrl).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/${env}$`));
        expect(environment.companies.length).toBeGreaterThanOrEqual(2);
        for (const company of environment.companies) expect(company).toEqual({ name: expect.any(String), apiKey: expect.any(String), locationIds: expect.any(Array) });
        expect(environment.revokedKey).toEqual(expect.any(String));
      }
      expect(description.printers).toEqual([
        { name: 'Virtual Zebra 1', host: '127.0.0.1', port: expect.any(Number), discoveryPort: expect.any(Number) },
        { name: 'Virtual Zebra 2', host: '127.0.0.1', port: expect.any(Number), discoveryPort: expect.any(Number) },
      ]);
      expect(description.control).toEqual({ baseUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/), token: expect.any(String) });

      const test = description.environments.test;
      const coverage = await call('GET', `${test.baseUrl}/coverage/postal-codes/${test.companies[0].locationIds[0]}`, { key: test.companies[0].apiKey });
      expect(coverage.status).toBe(200);
      const today = await call('GET', `${description.control.baseUrl}/environments/test/todays-orders`, { headers: { authorization: `Bearer ${description.control.token}` } });
      expect(today.body.orders).toHaveLength(20);
      expect(Buffer.concat(stderr).toString()).toContain('Press Ctrl-C to stop');

      const apiPort = Number(new URL(test.baseUrl).port);
      child.kill('SIGTERM');
      expect(await exited(child)).toEqual({ code: 0, signal: null });
      expect(await portClosed(apiPort)).toBe(true);
      expect(await portClosed(description.printers[0].port)).toBe(true);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('refuses unknown options and bad values with a message and exit code 2', async () => {
    const child = runCli(['--latency', 'soon']);
    const stderr: Buffer[] = [];
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    expect((await exited(child)).code).toBe(2);
    expect(Buffer.concat(stderr).toString()).toContain('--latency needs a number');
    const unknown = runCli(['--colour', 'blue']);
    expect((await exited(unknown)).code).toBe(2);
    const outOfRange = runCli(['--error-rate', '3']);
    expect((await exited(outOfRange)).code).toBe(2);
  });
  it('answers bodies nested 60,000 deep 400 on the API and the control API, then 1,000 checks, and keeps running', async () => {
    const child = runCli(['--orders', '5', '--rate-limit', '0', '--body-limit', String(1024 * 1024)]);
    try {
      const description = JSON.parse(await firstLine(child));
      const test = description.environments.test;
      const key = test.companies[0].apiKey;
      const checkUrl = `${test.baseUrl}/orders/check/postal-code/${test.companies[0].locationIds[0]}`;
      const control = { authorization: `Bearer ${description.control.token}`, 'content-type': 'application/json' };
      for (const rawBody of [`${'['.repeat(60_000)}${']'.repeat(60_000)}`, `${'{"a":'.repeat(60_000)}1${'}'.repeat(60_000)}`]) {
        const api = await call('POST', checkUrl, { key, rawBody, headers: { 'content-type': 'application/json' } });
        expect({ status: api.status, body: api.body }).toMatchObject({ status: 400, body: { statusCode: 400, message: ['body is refused: objects and arrays nest more than 32 deep'], error: 'Bad Request' } });
        const settings = await call('PATCH', `${description.control.baseUrl}/settings`, { rawBody, headers: control });
        expect(settings.status).toBe(400);
      }
      let answered = 0;
      const checkFrom = async (first: number) => {
        for (let n = first; n < 1_000; n += 4) {
          const reply = await call('POST', checkUrl, { key, body: { postalCode: '1012LG', countryCode: 'NL' } });
          expect(reply.status).toBe(200);
          answered += 1;
        }
      };
      await Promise.all([0, 1, 2, 3].map(checkFrom));
      expect(answered).toBe(1_000);
      expect(child.exitCode).toBeNull();
    } finally {
      child.kill('SIGKILL');
    }
  });
});
