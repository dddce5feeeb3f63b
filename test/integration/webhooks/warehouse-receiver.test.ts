/**
 * The warehouse's one webhook receiver: the real CLI (`webhooks serve --store postgres://…`) in a
 * process of its own on the run's private PostgreSQL server, a second engine playing a bench. The
 * service's webhooks go over loopback; the bench hears a pull notice by LISTEN/NOTIFY; a receiver
 * killed mid-stream loses nothing the service sends again.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { createEventBus } from '../../../src/main/contract/event-bus';
import { createLogger } from '../../../src/main/logging/logger';
import { CreationLedger } from '../../../src/main/shipping/creation-ledger';
import { PostgresEngine } from '../../../src/main/store/engine/postgres-engine';
import { createPullNotices } from '../../../src/main/supervision/pull-notices';
import type { PullNoticeData } from '../../../src/shared/contract/supervision';
import { runCliIn } from '../../support/cli';
import { createTestDatabase, freeLoopbackPort, type TestDatabase } from '../../support/postgres-server';
import { postgresConfig } from '../store-engine/engines';
import { statusEvent } from './payloads';
import { childScript } from '../../support/child-scripts';
import { startCuttableProxy } from '../../support/cuttable-proxy';
import { waitUntil } from '../../support/wait-until';

const logger = createLogger(() => undefined, { level: 'error' });

let database: TestDatabase;
let dataDir: string;
let bench: PostgresEngine | null = null;
const children: ChildProcess[] = [];

const storeAddress = (info: TestDatabase['info']) => `postgres://${info.user}@${info.host}:${info.port}/${info.database}?sslmode=disable`;

interface Receiver {
  child: ChildProcess;
  /** The test environment's webhook address, as the receiver printed it. */
  url: string;
  exited: Promise<void>;
}

/** Starts `packing-station webhooks serve --store …` and waits for the addresses it prints; `storePort` reaches the store another way (a cuttable proxy). */
function startReceiver(port: number, password: string, storePort = database.info.port): Promise<Receiver> {
  const child = spawn(process.execPath, [childScript('src/main/cli/index.ts'), '--data-dir', dataDir, 'webhooks', 'serve', '--store', storeAddress({ ...database.info, port: storePort }), '--unverified-server', '--show-addresses', '--host', '127.0.0.1', '--port', String(port)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PACKING_STATION_STORE_PASSWORD: password },
  });
  children.push(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const url = /^\s+test\s+(http:\/\/\S+)$/m.exec(out)?.[1];
      if (url) resolve({ child, url, exited });
    });
    child.once('exit', (code) => reject(new Error(`the receiver ended (${code}) before listening: ${out}${err}`)));
  });
}

/** A text is sent as it is (a body no service would send); anything else as its JSON. */
const post = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json; charset=UTF-8' }, body: typeof body === 'string' ? body : JSON.stringify(body) });

/** The service's way: send again until the receiver answers 2xx. */
async function deliver(url: string, body: unknown): Promise<number> {
  const deadline = Date.now() + 30_000;
  let attempts = 0;
  for (;;) {
    attempts += 1;
    try {
      const response = await post(url, body);
      await response.arrayBuffer();
      if (response.ok) return attempts;
    } catch {
      // Connection refused or reset: the receiver is down; the service tries again.
    }
    if (Date.now() > deadline) throw new Error(`not delivered after ${attempts} attempts`);
    // Time is the input: the service's pause before it tries the delivery again.
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeEach(async () => {
  database = await createTestDatabase(inject('postgres'));
  dataDir = mkdtempSync(join(tmpdir(), 'station-receiver-'));
});
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await bench?.close();
  bench = null;
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('webhooks serve --store (the warehouse receiver)', () => {
  it('takes a webhook over loopback into the shared store and a bench hears the pull notice within a second', async () => {
    const receiver = await startReceiver(await freeLoopbackPort(), database.info.password);
    // The receiver migrated the store on start; the bench opens it as a bench does.
    bench = await PostgresEngine.open(postgresConfig(database.info));
    await bench.execute(
      `INSERT INTO print_journal (environment, printer_id, operator, order_id, format, state, queued_at, sent_at, printed_at, updated_at)
       VALUES ('test', 'zebra-1', 'Packer Pia', 'ORD-1', 'zpl', 'printed', $1, $1, $1, $1)`,
      ['2026-03-01T08:00:00.000Z'],
    );
    const events = createEventBus(logger);
    const notices = createPullNotices({ engine: bench, events, logger, benchName: () => 'Bench 3' });
    const following = await notices.follow();
    const heard = new Promise<{ notice: PullNoticeData; at: number }>((resolve) =>
      events.subscribe((name, payload) => {
        if (name === 'supervision.notice') resolve({ notice: payload as PullNoticeData, at: performance.now() });
      }),
    );
    const sent = performance.now();
    const response = await post(receiver.url, statusEvent('ORD-1', 'cancelled', 'expected', { updatedAt: new Date().toISOString() }));
    expect(response.status).toBe(200);
    const { notice, at } = await heard;
    expect(notice).toMatchObject({ orderId: 'ORD-1', orderRef: 'REF-ORD-1', barcode: 'BC-ORD-1', status: 'cancelled', acknowledged: null });
    expect(at - sent).toBeLessThan(1000);
    expect(await bench.query('SELECT status, source FROM orders')).toEqual([{ status: 'cancelled', source: 'webhook' }]);
    await following.close();
  });

  it('settles a bench\'s parcel of unknown outcome in the shared store from the service\'s status event', async () => {
    const receiver = await startReceiver(await freeLoopbackPort(), database.info.password);
    bench = await PostgresEngine.open(postgresConfig(database.info));
    // A bench's POST for REF-ORD-7 lost its answer: the parcel is unknown in the warehouse's ledger.
    const ledger = new CreationLedger(bench, { bench: 'bench-3', process: 'bench-3:1' });
    expect(await ledger.claim('test', 'REF-ORD-7', 1, 1)).toBe(true);
    await ledger.markUnknown('test', 'REF-ORD-7', 1, 'the connection dropped');
    const response = await post(receiver.url, statusEvent('ORD-7', 'draft', null, { updatedAt: new Date().toISOString() }));
    expect(response.status).toBe(200);
    // Answered after the intake committed, the parcel's settlement with it.
    expect(await ledger.entry('test', 'REF-ORD-7', 1)).toMatchObject({ state: 'created', orderId: 'ORD-7', barcode: 'BC-ORD-7', bundleId: 'BUN-7' });
  });

  it('killed mid-stream and restarted, loses nothing the service sends again, and writes each event once', async () => {
    const port = await freeLoopbackPort();
    let receiver = await startReceiver(port, database.info.password);
    const total = 60;
    let restarted: Promise<Receiver> | null = null;
    for (let n = 0; n < total; n += 1) {
      if (n === 20) {
        // Killed without warning: events in flight get no answer and are sent again.
        receiver.child.kill('SIGKILL');
        restarted = receiver.exited.then(() => startReceiver(port, database.info.password));
      }
      await deliver(receiver.url, statusEvent(`ORD-${n}`, 'expected', 'draft', { updatedAt: '2026-03-01T09:00:00.000Z' }));
      // The service may also repeat an event it already had an answer for.
      if (n % 10 === 5) await deliver(receiver.url, statusEvent(`ORD-${n}`, 'expected', 'draft', { updatedAt: '2026-03-01T09:00:00.000Z' }));
    }
    if (!restarted) throw new Error('the receiver was never restarted');
    const first = receiver.url;
    receiver = await restarted;
    // The address registered with the service stays the same across a restart (same port, same secret).
    expect(receiver.url).toBe(first);
    bench = await PostgresEngine.open(postgresConfig(database.info));
    expect(await bench.query<{ n: number }>('SELECT count(*) AS n FROM webhook_events')).toEqual([{ n: total }]);
    expect(await bench.query<{ n: number }>("SELECT count(*) AS n FROM orders WHERE status = 'expected'")).toEqual([{ n: total }]);
    expect(await bench.query<{ n: number }>('SELECT count(*) AS n FROM order_status_timeline')).toEqual([{ n: total }]);
  });

  it('a bench that lost its listening connection while a notice was raised announces it once it listens again', async () => {
    const receiverStore = await PostgresEngine.open(postgresConfig(database.info));
    // A long pause before re-listening: the notice below is surely raised while the bench does not listen.
    bench = await PostgresEngine.open({ ...postgresConfig(database.info), applicationName: 'bench-3' }, { reconnectDelayMs: 1_000 });
    try {
      await receiverStore.execute(
        `INSERT INTO print_journal (environment, printer_id, operator, order_id, format, state, queued_at, sent_at, printed_at, updated_at)
         VALUES ('test', 'zebra-1', 'Packer Pia', 'ORD-2', 'zpl', 'printed', $1, $1, $1, $1)`,
        ['2026-03-01T08:00:00.000Z'],
      );
      const events = createEventBus(logger);
      const following = await createPullNotices({ engine: bench, events, logger, benchName: () => 'Bench 3' }).follow();
      const heard = new Promise<PullNoticeData>((resolve) =>
        events.subscribe((name, payload) => {
          if (name === 'supervision.notice') resolve(payload as PullNoticeData);
        }),
      );
      const [ended] = await receiverStore.query<{ ended: number }>(
        "SELECT count(pg_terminate_backend(pid)) AS ended FROM pg_stat_activity WHERE application_name = 'bench-3' AND query LIKE 'LISTEN%'",
      );
      expect(ended).toEqual({ ended: 1 });
      const receiverNotices = createPullNotices({ engine: receiverStore, events: createEventBus(logger), logger, benchName: () => 'Receiver' });
      const raised = await receiverStore.transaction((tx) =>
        receiverNotices.consider(tx, { environment: 'test', orderId: 'ORD-2', payload: statusEvent('ORD-2', 'rejected', 'expected'), decision: 'applied', known: null, receivedAt: new Date().toISOString() }),
      );
      expect(await heard).toMatchObject({ id: raised, orderId: 'ORD-2', status: 'rejected', bench: 'Receiver' });
      await following.close();
    } finally {
      await receiverStore.close();
    }
  });

  it('answers a 60,000-deep array and a 60,000-deep object with 400, then 1,000 events with 200, and is still running', async () => {
    // The largest body the setting allows, so the deepest bodies fit in it whole, as valid JSON.
    expect((await runCliIn(dataDir, {}, ['settings', 'set', '--webhook-body-limit', String(1024 * 1024)])).code).toBe(0);
    const receiver = await startReceiver(await freeLoopbackPort(), database.info.password);
    const deepArray = `${'['.repeat(60_000)}${']'.repeat(60_000)}`;
    const deepObject = `${'{"a":'.repeat(60_000)}1${'}'.repeat(60_000)}`;
    for (const body of [deepArray, deepObject, '['.repeat(60_000)]) {
      const response = await post(receiver.url, body);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: 'Bad Request' });
    }
    let answered = 0;
    const sendFrom = async (first: number) => {
      for (let n = first; n < 1_000; n += 4) {
        const response = await post(receiver.url, statusEvent(`ORD-${n}`, 'expected', 'draft', { updatedAt: '2026-03-01T09:00:00.000Z' }));
        expect(response.status).toBe(200);
        await response.arrayBuffer();
        answered += 1;
      }
    };
    await Promise.all([0, 1, 2, 3].map(sendFrom));
    expect(answered).toBe(1_000);
    expect(receiver.child.exitCode).toBeNull();
    const health = await fetch(new URL('/healthz', receiver.url));
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', store: 'reachable', requests: { accepted: 1_000, rejected: 3, failed: 0 }, strayErrors: 0 });
    bench = await PostgresEngine.open(postgresConfig(database.info));
    expect(await bench.query<{ n: number }>('SELECT count(*) AS n FROM webhook_events')).toEqual([{ n: 1_000 }]);
    // A thousand events are a thousand transactions on the store: about 6 s alone, more beside other files.
  }, 180_000);

  it('reports its health on this machine: 200 while the store answers, 503 naming the store while it does not', async () => {
    const proxy = await startCuttableProxy(database.info.port);
    try {
      const receiver = await startReceiver(await freeLoopbackPort(), database.info.password, proxy.port);
      const healthUrl = new URL('/healthz', receiver.url);
      expect((await post(receiver.url, statusEvent('ORD-1', 'expected', 'draft'))).status).toBe(200);
      const up = await fetch(healthUrl);
      expect(up.status).toBe(200);
      const report = (await up.json()) as { uptimeSeconds: number; lastEventAt: string | null };
      expect(report).toMatchObject({ status: 'ok', store: 'reachable', requests: { accepted: 1, rejected: 0, failed: 0 }, events: { applied: 1 }, strayErrors: 0 });
      expect(report.uptimeSeconds).toBeGreaterThanOrEqual(0);
      expect(report.lastEventAt).not.toBeNull();

      await proxy.cut();
      const down = await fetch(healthUrl);
      expect(down.status).toBe(503);
      expect(await down.json()).toMatchObject({ status: 'store-unreachable', store: 'unreachable' });

      await proxy.restore();
      await waitUntil(async () => (await fetch(healthUrl)).status === 200, 'the receiver to find its store again');
      expect(receiver.child.exitCode).toBeNull();
    } finally {
      await proxy.close();
    }
  });

  it('says plainly when the store refuses the password or cannot be reached', async () => {
    // No password in this process's environment: the keychain is asked, and holds no entry for the address.
    const noPassword = await runCliIn(dataDir, {}, ['webhooks', 'serve', '--store', storeAddress(database.info), '--unverified-server', '--port', '0']);
    expect(noPassword.code).toBe(1);
    expect(noPassword.stderr).toContain(`No password is stored for the shared store postgres://${database.info.user}@127.0.0.1:${database.info.port}/${database.info.database}.`);

    const refused = await withPassword('not-the-password', () => runCliIn(dataDir, {}, ['webhooks', 'serve', '--store', storeAddress(database.info), '--unverified-server', '--port', '0']));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`The shared store at 127.0.0.1:${database.info.port} refused the password of user ${database.info.user} (from the PACKING_STATION_STORE_PASSWORD variable).`);

    const closedPort = await freeLoopbackPort();
    const unreachable = await withPassword(database.info.password, () =>
      runCliIn(dataDir, {}, ['webhooks', 'serve', '--store', `postgres://${database.info.user}@127.0.0.1:${closedPort}/${database.info.database}?sslmode=disable`, '--unverified-server', '--port', '0']),
    );
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toContain(`The shared store at 127.0.0.1:${closedPort} cannot be reached`);

    const tls = await withPassword(database.info.password, () => runCliIn(dataDir, {}, ['webhooks', 'serve', '--store', storeAddress(database.info), '--tls', 'require', '--unverified-server', '--port', '0']));
    expect(tls.code).toBe(1);
    expect(tls.stderr).toContain(`The TLS connection to the shared store at 127.0.0.1:${database.info.port} was refused`);
  });
});

/** Runs `work` with the store password in this process's environment (the CLI in-process reads process.env). */
async function withPassword<T>(password: string, work: () => Promise<T>): Promise<T> {
  const before = process.env.PACKING_STATION_STORE_PASSWORD;
  process.env.PACKING_STATION_STORE_PASSWORD = password;
  try {
    return await work();
  } finally {
    if (before === undefined) delete process.env.PACKING_STATION_STORE_PASSWORD;
    else process.env.PACKING_STATION_STORE_PASSWORD = before;
  }
}
