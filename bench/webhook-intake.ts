/**
 * The warehouse receiver's figures: webhooks per second into PostgreSQL through the real receiver
 * (`webhooks serve --store`, spawned as the service runs), and how long a bench waits to hear a
 * status change (LISTEN/NOTIFY on the order_status channel) after the service sent it.
 * A private PostgreSQL server is started for the run (test/support/postgres-server.ts) and reached
 * over loopback TCP; the webhooks go over loopback HTTP.
 * Run: npx tsx bench/webhook-intake.ts [events=5000] [inFlight=16] [latencySamples=500]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PostgresEngine } from '../src/main/store/engine/postgres-engine';
import { createTestDatabase, freeLoopbackPort, startPostgresServer } from '../test/support/postgres-server';
import { statusEvent } from '../test/integration/webhooks/payloads';

const eventCount = Number(process.argv[2] ?? 5_000);
const inFlight = Number(process.argv[3] ?? 16);
const latencySamples = Number(process.argv[4] ?? 500);

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const ms = (value: number) => `${value.toFixed(2)} ms`;

async function main(): Promise<void> {
  const server = await startPostgresServer();
  const database = await createTestDatabase(server.info);
  const { info } = database;
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-receiver-'));
  const port = await freeLoopbackPort();
  const receiver = spawn(
    process.execPath,
    ['--import', 'tsx', join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'main', 'cli', 'index.ts'), '--data-dir', dataDir, 'webhooks', 'serve', '--store', `postgres://${info.user}@${info.host}:${info.port}/${info.database}?sslmode=disable`, '--unverified-server', '--show-addresses', '--host', '127.0.0.1', '--port', String(port)],
    { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, PACKING_STATION_STORE_PASSWORD: info.password } },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    receiver.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const found = /^\s+test\s+(http:\/\/\S+)$/m.exec(out)?.[1];
      if (found) resolve(found);
    });
    receiver.once('exit', (code) => reject(new Error(`receiver ended (${code}): ${out}`)));
  });
  const bench = await PostgresEngine.open({ host: info.host, port: info.port, database: info.database, user: info.user, password: info.password, tls: 'disable' });
  const post = async (body: unknown) => {
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json; charset=UTF-8' }, body: JSON.stringify(body) });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`receiver answered ${response.status}`);
  };

  try {
    // Warm-up: connections, statement plans, the JIT.
    for (let n = 0; n < 200; n += 1) await post(statusEvent(`WARM-${n}`, 'expected', 'draft'));

    // Intake rate: `inFlight` deliveries at a time, as a busy service sends them; each answered once committed.
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (next < eventCount) {
          const n = next++;
          await post(statusEvent(`ORD-${n}`, n % 2 === 0 ? 'expected' : 'in_transit', 'draft', { updatedAt: '2026-03-01T09:00:00.000Z' }));
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const [stored] = await bench.query<{ n: number }>("SELECT count(*) AS n FROM webhook_events WHERE order_id LIKE 'ORD-%'");

    // Notify latency: one webhook at a time; from sending it to a bench hearing its order id.
    const waiting = new Map<string, () => void>();
    const subscription = await bench.subscribe('order_status', {
      onMessage: (payload) => {
        for (const id of (JSON.parse(payload) as { ids: string[] }).ids) waiting.get(id)?.();
      },
    });
    const heardAfter: number[] = [];
    const answeredAfter: number[] = [];
    for (let n = 0; n < latencySamples; n += 1) {
      const orderId = `LAT-${n}`;
      const sent = performance.now();
      const heard = new Promise<number>((resolve) => waiting.set(orderId, () => resolve(performance.now())));
      await post(statusEvent(orderId, 'out_for_delivery', 'in_transit'));
      answeredAfter.push(performance.now() - sent);
      heardAfter.push((await heard) - sent);
      waiting.delete(orderId);
    }
    await subscription.close();
    heardAfter.sort((a, b) => a - b);
    answeredAfter.sort((a, b) => a - b);

    console.log(`intake: ${eventCount} webhooks, ${inFlight} in flight: ${seconds.toFixed(2)} s, ${(eventCount / seconds).toFixed(0)} webhooks/s; stored ${stored?.n ?? 0}`);
    console.log(`answer (sent → 200, committed): p50 ${ms(percentile(answeredAfter, 50))}, p99 ${ms(percentile(answeredAfter, 99))}`);
    console.log(`bench hears it (sent → NOTIFY received): p50 ${ms(percentile(heardAfter, 50))}, p99 ${ms(percentile(heardAfter, 99))}, max ${ms(heardAfter.at(-1) ?? 0)} (${latencySamples} samples)`);
  } finally {
    receiver.kill('SIGTERM');
    await new Promise((resolve) => receiver.once('exit', resolve));
    await bench.close();
    await database.drop();
    await server.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
