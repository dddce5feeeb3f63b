/**
 * The shared store's server restarts (maintenance, failover) while a bench runs: calls fail with
 * STORE_UNAVAILABLE while it is down, work again once it is back, and a subscription listens again
 * by itself and says there was a gap. The test owns its server (stopped and started mid-test), so
 * the run's shared server is not disturbed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StationError } from '../../../src/shared/errors';
import { PostgresEngine } from '../../../src/main/store/engine/postgres-engine';
import { createTestDatabase, startPostgresServer, type PostgresServer, type TestDatabase } from '../../support/postgres-server';
import { postgresConfig } from './engines';

describe('PostgreSQL engine across a server restart', () => {
  let server: PostgresServer;
  let database: TestDatabase;
  beforeAll(async () => {
    server = await startPostgresServer();
    database = await createTestDatabase(server.info);
  });
  afterAll(async () => {
    await server?.dispose();
  });

  it('answers STORE_UNAVAILABLE while the server is down, then reconnects: queries, transactions and subscriptions work again', async () => {
    const bench = await PostgresEngine.open({ ...postgresConfig(database.info), connectTimeoutMs: 2_000 }, { reconnectDelayMs: 50, maxReconnectDelayMs: 200 });
    const sender = new PostgresEngine(postgresConfig(database.info));
    try {
      const heard: string[] = [];
      let gaps = 0;
      let gapSeen!: () => void;
      const gap = new Promise<void>((resolve) => (gapSeen = resolve));
      let messageSeen!: () => void;
      const message = new Promise<void>((resolve) => (messageSeen = resolve));
      await bench.subscribe('order_status', {
        onMessage: (payload) => {
          heard.push(payload);
          messageSeen();
        },
        onGap: () => {
          gaps += 1;
          gapSeen();
        },
      });
      await bench.execute("INSERT INTO settings (scope, key, value, updated_at) VALUES ('station', 'name', '\"Bench 3\"', 'before')");

      await server.stop();
      const down = await bench.query('SELECT value FROM settings').then(
        () => null,
        (error: unknown) => error,
      );
      expect(down).toBeInstanceOf(StationError);
      expect((down as StationError).code).toBe('STORE_UNAVAILABLE');
      await expect(bench.transaction(async (tx) => tx.query('SELECT 1'))).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });

      await server.start();
      expect(await bench.query('SELECT value FROM settings WHERE scope = $1', ['station'])).toEqual([{ value: '"Bench 3"' }]);
      await bench.transaction(async (tx) => {
        await tx.execute("UPDATE settings SET updated_at = 'after' WHERE scope = 'station'");
      });
      expect(await bench.query('SELECT updated_at FROM settings')).toEqual([{ updated_at: 'after' }]);

      await gap;
      await sender.notify('order_status', 'cancelled after the restart');
      await message;
      expect(heard).toEqual(['cancelled after the restart']);
      expect(gaps).toBe(1);
    } finally {
      await sender.close();
      await bench.close();
    }
  });

  it('listens again as soon as a statement gets through after the server is back, not at the end of its growing pause', async () => {
    // The listening connection's pause has grown to a minute by the time the server is back.
    const bench = await PostgresEngine.open({ ...postgresConfig(database.info), connectTimeoutMs: 2_000 }, { reconnectDelayMs: 30_000, maxReconnectDelayMs: 60_000 });
    try {
      let gapSeen!: () => void;
      const gap = new Promise<void>((resolve) => (gapSeen = resolve));
      await bench.subscribe('printers', { onMessage: () => undefined, onGap: () => gapSeen() });
      await server.stop();
      await server.start();
      const backAt = Date.now();
      // The station's next statement (a heartbeat, a scan) reaches the server: the channel is listened to again at once.
      await bench.query('SELECT 1');
      await gap;
      expect(Date.now() - backAt).toBeLessThan(10_000);
    } finally {
      await bench.close();
    }
  });

  it('a transaction whose server goes away between its statements fails with STORE_UNAVAILABLE; the station process lives on', async () => {
    const bench = await PostgresEngine.open({ ...postgresConfig(database.info), connectTimeoutMs: 2_000 });
    try {
      let stopped!: () => void;
      const serverStopped = new Promise<void>((resolve) => (stopped = resolve));
      const uncaught: Error[] = [];
      const onUncaught = (error: Error) => uncaught.push(error);
      process.on('uncaughtException', onUncaught);
      try {
        const outcome = bench
          .transaction(async (tx) => {
            await tx.query('SELECT 1');
            // The connection sits between two statements (the station awaiting other work) when the server stops.
            await serverStopped;
            await tx.query('SELECT 2');
          })
          .then(
            () => null,
            (error: unknown) => error,
          );
        await server.stop();
        stopped();
        expect(await outcome).toMatchObject({ code: 'STORE_UNAVAILABLE' });
      } finally {
        process.off('uncaughtException', onUncaught);
      }
      expect(uncaught).toEqual([]);
      await server.start();
      expect(await bench.query('SELECT 3 AS n')).toEqual([{ n: 3 }]);
    } finally {
      await bench.close();
    }
  });
});
