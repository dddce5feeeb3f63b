/**
 * What every repository may rely on, run against both engines on the station's real schema:
 * SQLite on a file, PostgreSQL on the run's private server.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StationError } from '../../../src/shared/errors';
import { type StoreEngine, type StoreSession } from '../../../src/main/store/engine/store-engine';
import { engineFactories, type EngineUnderTest } from './engines';

const now = '2026-11-24T06:28:00.000Z';

async function insertOrder(session: StoreSession, orderId: string, fields: { orderRef?: string | null; status?: string | null } = {}) {
  return session.execute(
    `INSERT INTO orders (environment, order_id, order_ref, barcode, bundle_id, recipient, status, status_updated_at, source, created_at, updated_at)
     VALUES ($1, $2, $3, NULL, NULL, NULL, $4, NULL, 'import', $5, $5)`,
    ['test', orderId, fields.orderRef ?? null, fields.status ?? null, now],
  );
}

async function orderIds(engine: StoreEngine, ids: string[]): Promise<string[]> {
  const rows = await engine.query<{ order_id: string }>('SELECT order_id FROM orders WHERE environment = $1 ORDER BY order_id', ['test']);
  return rows.map((row) => row.order_id).filter((id) => ids.includes(id));
}

async function conflictOf(promise: Promise<unknown>): Promise<StationError> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(StationError);
  return error as StationError;
}

const unique = (prefix: string) => `${prefix}-${randomUUID()}`;

describe.each(engineFactories)('store engine: $name', (factory) => {
  let store: EngineUnderTest;
  beforeAll(async () => {
    store = await factory.open();
  });
  afterAll(async () => {
    await store?.dispose();
  });

  it('binds numbered parameters (a number may repeat) and leaves "$1" inside quotes alone', async () => {
    const id = unique('ord');
    await insertOrder(store.engine, id, { orderRef: 'REF-1', status: 'draft' });
    const rows = await store.engine.query(
      "SELECT order_id, order_ref, status, status_updated_at, '$1 stays text' AS literal FROM orders WHERE environment = $1 AND (order_id = $2 OR order_ref = $2)",
      ['test', id],
    );
    expect(rows).toEqual([{ order_id: id, order_ref: 'REF-1', status: 'draft', status_updated_at: null, literal: '$1 stays text' }]);
  });

  it('stores booleans as 0/1 and integers as numbers in both engines', async () => {
    const id = unique('printer');
    await store.engine.execute(
      `INSERT INTO printers (environment, id, name, kind, address, orientation, default_for_single, default_for_bundles, options, created_at, updated_at, dpi)
       VALUES ($1, $2, 'Zebra', 'zebra-network', '{}', 'landscape', $3, $4, '{}', $5, $5, $6)`,
      ['test', id, false, true, now, 203],
    );
    const rows = await store.engine.query('SELECT default_for_single, default_for_bundles, dpi FROM printers WHERE environment = $1 AND id = $2', ['test', id]);
    expect(rows).toEqual([{ default_for_single: 0, default_for_bundles: 1, dpi: 203 }]);
    await store.engine.execute('DELETE FROM printers WHERE environment = $1 AND id = $2', ['test', id]);
  });

  it('gives new rows their ids with RETURNING, as numbers that grow', async () => {
    const insert = `INSERT INTO print_journal (environment, printer_id, operator, format, state, queued_at, updated_at)
                    VALUES ($1, 'zebra-1', 'Ann', 'zpl', 'queued', $2, $2) RETURNING id`;
    const [first] = await store.engine.query<{ id: number }>(insert, ['test', now]);
    const [second] = await store.engine.query<{ id: number }>(insert, ['test', now]);
    expect(typeof first!.id).toBe('number');
    expect(second!.id).toBeGreaterThan(first!.id);
  });

  it('counts the rows a statement changed, and upserts with ON CONFLICT', async () => {
    const scope = unique('scope');
    const upsert = `INSERT INTO settings (scope, key, value, updated_at) VALUES ($1, 'language', $2, $3)
                    ON CONFLICT (scope, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`;
    expect(await store.engine.execute(upsert, [scope, '"en"', now])).toEqual({ changes: 1 });
    expect(await store.engine.execute(upsert, [scope, '"nl"', now])).toEqual({ changes: 1 });
    expect(await store.engine.query('SELECT value FROM settings WHERE scope = $1', [scope])).toEqual([{ value: '"nl"' }]);
    expect(await store.engine.execute("UPDATE settings SET value = '\"de\"' WHERE scope = $1 AND key = 'nothing'", [scope])).toEqual({ changes: 0 });
  });

  it('surfaces a taken primary key as STORE_CONFLICT naming the table and its key columns', async () => {
    const id = unique('ord');
    await insertOrder(store.engine, id);
    const error = await conflictOf(insertOrder(store.engine, id));
    expect(error.code).toBe('STORE_CONFLICT');
    expect(error.details).toEqual(['orders', 'environment, order_id']);
  });

  it('surfaces a taken unique index (partial, one default printer) as the same STORE_CONFLICT', async () => {
    const environment = 'live';
    const add = (id: string) =>
      store.engine.execute(
        `INSERT INTO printers (environment, id, name, kind, address, orientation, default_for_single, created_at, updated_at)
         VALUES ($1, $2, 'Zebra', 'zebra-network', '{}', 'landscape', 1, $3, $3)`,
        [environment, id, now],
      );
    await add(unique('printer'));
    const error = await conflictOf(add(unique('printer')));
    expect(error.code).toBe('STORE_CONFLICT');
    expect(error.details).toEqual(['printers', 'environment']);
    await store.engine.execute('DELETE FROM printers WHERE environment = $1', [environment]);
  });

  it('rolls a transaction back when its work throws, and rethrows that error', async () => {
    const kept = unique('ord');
    const dropped = unique('ord');
    await insertOrder(store.engine, kept);
    const failure = new Error('the printer refused');
    await expect(
      store.engine.transaction(async (tx) => {
        await insertOrder(tx, dropped);
        await tx.execute('UPDATE orders SET status = $1 WHERE environment = $2 AND order_id = $3', ['cancelled', 'test', kept]);
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await orderIds(store.engine, [kept, dropped])).toEqual([kept]);
    expect(await store.engine.query('SELECT status FROM orders WHERE environment = $1 AND order_id = $2', ['test', kept])).toEqual([{ status: null }]);
  });

  it('commits a transaction whose work resolves, answering its result', async () => {
    const id = unique('ord');
    const result = await store.engine.transaction(async (tx) => {
      await insertOrder(tx, id);
      return (await tx.query<{ order_id: string }>('SELECT order_id FROM orders WHERE environment = $1 AND order_id = $2', ['test', id]))[0]?.order_id;
    });
    expect(result).toBe(id);
    expect(await orderIds(store.engine, [id])).toEqual([id]);
  });

  it('two benches racing to write the same key: exactly one wins, the other gets STORE_CONFLICT', async () => {
    const orderRef = unique('REF');
    const bench3 = store.engine;
    const bench7 = await store.another();
    const claim = (engine: StoreEngine, owner: string, beforeCommit: () => Promise<void>) =>
      engine.transaction(async (tx) => {
        // Both look first, as the ship flow does: neither sees the other's uncommitted row.
        const existing = await tx.query('SELECT owner FROM creation_ledger WHERE environment = $1 AND order_ref = $2 AND parcel = 1', ['test', orderRef]);
        if (existing.length > 0) return 'saw it taken';
        await tx.execute(
          `INSERT INTO creation_ledger (environment, order_ref, parcel, parcel_count, service_ref, state, owner, created_at, updated_at)
           VALUES ($1, $2, 1, 1, $3, 'intended', $4, $5, $5)`,
          ['test', orderRef, `${orderRef}-1`, owner, now],
        );
        await beforeCommit();
        return 'created';
      });
    let releaseFirst!: () => void;
    const firstMayCommit = new Promise<void>((resolve) => (releaseFirst = resolve));
    let firstHolds!: () => void;
    const firstHoldsKey = new Promise<void>((resolve) => (firstHolds = resolve));
    const first = claim(bench3, 'Bench 3', () => {
      firstHolds();
      return firstMayCommit;
    });
    // Once Bench 3 holds the key uncommitted, Bench 7 looks (on PostgreSQL it sees nothing) and inserts.
    await firstHoldsKey;
    const second = claim(bench7, 'Bench 7', async () => undefined);
    try {
      await store.waitersOnLocks(1);
    } finally {
      releaseFirst();
    }
    const outcomes = await Promise.allSettled([first, second]);
    expect(outcomes[0]).toEqual({ status: 'fulfilled', value: 'created' });
    if (factory.name === 'postgres') {
      expect(outcomes[1].status).toBe('rejected');
      expect(((outcomes[1] as PromiseRejectedResult).reason as StationError).code).toBe('STORE_CONFLICT');
    } else {
      // SQLite takes the second transaction only after the first committed: it sees the row.
      expect(outcomes[1]).toEqual({ status: 'fulfilled', value: 'saw it taken' });
    }
    expect(await bench3.query('SELECT owner FROM creation_ledger WHERE environment = $1 AND order_ref = $2', ['test', orderRef])).toEqual([{ owner: 'Bench 3' }]);
  });

  it('queryForUpdate makes a second read-then-write wait for the first: no update is lost', async () => {
    const id = unique('ord');
    await store.engine.execute(
      `INSERT INTO order_status_timeline (environment, order_id, status, attempt, event_updated_at, received_at, outcome)
       VALUES ($1, $2, 'delivery_attempt', 0, $3, $3, 'applied')`,
      ['test', id, now],
    );
    const bench7 = await store.another();
    const bump = (engine: StoreEngine, beforeWrite: () => Promise<void>) =>
      engine.transaction(async (tx) => {
        const [row] = await tx.queryForUpdate<{ attempt: number }>('SELECT attempt FROM order_status_timeline WHERE environment = $1 AND order_id = $2', ['test', id]);
        await beforeWrite();
        await tx.execute('UPDATE order_status_timeline SET attempt = $1 WHERE environment = $2 AND order_id = $3', [row!.attempt + 1, 'test', id]);
      });
    let releaseFirst!: () => void;
    const firstMayWrite = new Promise<void>((resolve) => (releaseFirst = resolve));
    let firstHolds!: () => void;
    const firstHoldsRow = new Promise<void>((resolve) => (firstHolds = resolve));
    const first = bump(store.engine, () => {
      firstHolds();
      return firstMayWrite;
    });
    await firstHoldsRow;
    const second = bump(bench7, async () => undefined);
    try {
      await store.waitersOnLocks(1);
    } finally {
      releaseFirst();
    }
    await Promise.all([first, second]);
    expect(await store.engine.query('SELECT attempt FROM order_status_timeline WHERE environment = $1 AND order_id = $2', ['test', id])).toEqual([{ attempt: 2 }]);
  });

  it('delivers a notification sent in a transaction once it commits, and never one rolled back', async () => {
    const listener = await store.another();
    const received: string[] = [];
    let heard!: () => void;
    const firstHeard = new Promise<void>((resolve) => (heard = resolve));
    const subscription = await listener.subscribe('order_status', {
      onMessage: (payload) => {
        received.push(payload);
        heard();
      },
    });
    try {
      await expect(
        store.engine.transaction(async (tx) => {
          await tx.notify('order_status', 'rolled back');
          throw new Error('abandoned');
        }),
      ).rejects.toThrow('abandoned');
      await store.engine.transaction(async (tx) => {
        await tx.notify('order_status', JSON.stringify({ orderId: 'ord_1', status: 'cancelled' }));
      });
      await firstHeard;
      expect(received).toEqual([JSON.stringify({ orderId: 'ord_1', status: 'cancelled' })]);
    } finally {
      await subscription.close();
    }
  });

  it('delivers a notification sent outside a transaction to every subscriber of the channel, not to other channels', async () => {
    const listener = await store.another();
    const heard: string[] = [];
    let done!: () => void;
    const otherHeard = new Promise<void>((resolve) => (done = resolve));
    const record = (who: string) => ({
      onMessage: (payload: string) => {
        heard.push(`${who}:${payload}`);
        if (who === 'other') done();
      },
    });
    const subscriptions = [
      await listener.subscribe('printers', record('a')),
      await listener.subscribe('printers', record('b')),
      await listener.subscribe('pull_notices', record('other')),
    ];
    try {
      await store.engine.notify('printers', 'zebra-1');
      // Notifications arrive in the order sent: once this one is heard, the first was too.
      await store.engine.notify('pull_notices', 'after');
      await otherHeard;
      expect(heard).toEqual(['a:zebra-1', 'b:zebra-1', 'other:after']);
    } finally {
      for (const subscription of subscriptions) await subscription.close();
    }
  });

  it('commits a statement run without waiting for the disk all the same: another bench reads it', async () => {
    const id = unique('ord');
    await insertOrder(store.engine, id, { status: 'draft' });
    const result = await store.engine.executeWithoutDiskWait('UPDATE orders SET status = $1 WHERE environment = $2 AND order_id = $3', ['shipped', 'test', id]);
    expect(result.changes).toBe(1);
    const other = await store.another();
    expect(await other.query('SELECT status FROM orders WHERE environment = $1 AND order_id = $2', ['test', id])).toEqual([{ status: 'shipped' }]);
  });

  it('reads through the index its dialect names, finding the same rows', async () => {
    const id = unique('ord');
    const ref = unique('REF');
    await insertOrder(store.engine, id, { orderRef: ref });
    const rows = await store.engine.query(`SELECT order_id FROM orders${store.engine.dialect.indexHint('orders_by_ref')} WHERE environment = $1 AND order_ref = $2`, ['test', ref]);
    expect(rows).toEqual([{ order_id: id }]);
  });

  it('refuses a channel name that is not a plain identifier', async () => {
    await expect(store.engine.notify('orders; DROP TABLE orders', 'x')).rejects.toThrow('Not a usable notification channel name');
  });
});
