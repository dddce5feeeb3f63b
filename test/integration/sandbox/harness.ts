/**
 * Test harness: a sandbox started in-process on free loopback ports, a small HTTP caller that
 * shows status, headers and body exactly as they came, and a webhook receiver.
 */
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../../src/sandbox/index';

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface CallOptions {
  key?: string | null;
  body?: unknown;
  /** Sent as is (for malformed and oversized bodies). */
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
}

export async function call(method: string, url: string, options: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers['api-key'] = options.key;
  let body: string | Buffer | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const answer = await request(url, { method: method as 'GET', headers, body });
  const text = await answer.body.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: answer.statusCode, headers: answer.headers, text, body: parsed };
}

export interface Harness {
  sandbox: RunningSandbox;
  /** Base URL of an environment. */
  base(env?: 'test' | 'live'): string;
  /** Seed key of company `index` (0: Noordwind, 1: De Vries, 2: Rijnland). */
  key(index?: number, env?: 'test' | 'live'): string;
  location(index?: number, env?: 'test' | 'live', which?: number): string;
  api(method: string, path: string, options?: CallOptions & { env?: 'test' | 'live' }): Promise<Reply>;
  control(method: string, path: string, body?: unknown): Promise<Reply>;
  close(): Promise<void>;
}

export async function startHarness(options: SandboxOptions = {}): Promise<Harness> {
  const sandbox = await startSandbox({ printers: 0, seedSize: 'small', rateLimit: { requestsPerSecond: 0 }, faults: { labelDelayMs: 0 }, ...options });
  const env = (name: 'test' | 'live' = 'test') => sandbox.environments[name];
  const harness: Harness = {
    sandbox,
    base: (name = 'test') => env(name).baseUrl,
    key: (index = 0, name = 'test') => env(name).companies[index]!.apiKey,
    location: (index = 0, name = 'test', which = 0) => env(name).companies[index]!.locationIds[which]!,
    api: (method, path, { env: name = 'test', key, ...rest } = {}) =>
      call(method, `${env(name).baseUrl}${path}`, { key: key === undefined ? harness.key(0, name) : key, ...rest }),
    control: (method, path, body) =>
      call(method, `${sandbox.control.baseUrl}${path}`, {
        headers: { authorization: `Bearer ${sandbox.control.token}` },
        ...(body === undefined ? {} : { body }),
      }),
    close: () => sandbox.close(),
  };
  return harness;
}

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  path: string;
  at: number;
}

export interface Receiver {
  url: string;
  received: ReceivedWebhook[];
  /** Status to answer for the next requests (default 200). */
  answer: (received: ReceivedWebhook, index: number) => number;
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: ReceivedWebhook[] = [];
  const waiters: (() => void)[] = [];
  const receiver: Receiver = {
    url: '',
    received,
    answer: () => 200,
    waitFor: (count, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (received.length < count) {
            waiters.push(check);
            return;
          }
          clearTimeout(timer);
          resolve(received);
        };
        const timer = setTimeout(() => reject(new Error(`received ${received.length} of ${count} webhooks`)), timeoutMs);
        check();
      }),
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
      const item = { headers: req.headers, body, path: req.url ?? '', at: Date.now() };
      received.push(item);
      res.statusCode = receiver.answer(item, received.length - 1);
      res.end();
      for (const waiter of waiters.splice(0)) waiter();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/secret-path`;
  return receiver;
}

/** A deliverable Amsterdam address for Noordwind's Amsterdam location. */
export const amsterdam = { street: 'Kerkstraat', houseNumber: '12', suffix: '', postalCode: '1017 GC', city: 'Amsterdam', countryCode: 'NL' };

export function newOrder(locationId: string, extra: Record<string, unknown> = {}) {
  return { locationId, orderRef: `TEST-${Math.random().toString(36).slice(2, 10)}`, deliveryName: 'Iris Visser', deliveryEmail: 'iris@mail.example', deliveryAddress: amsterdam, ...extra };
}
