/**
 * A bench's copy of the warehouse's orders (two real SQLite files standing for the shared store
 * and the bench's own): the first copy reaches a week back, later ones take only what changed
 * since, including a change stamped a little earlier by a bench whose clock is behind, and a
 * second page when there is more than one page of changes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { copyChangedOrders } from '../../../src/main/store/order-copy';
import { SqliteEngine } from '../../../src/main/store/engine/sqlite-engine';

const folders: string[] = [];
const engines: SqliteEngine[] = [];
afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.close();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function file(): SqliteEngine {
  const folder = mkdtempSync(join(tmpdir(), 'station-order-copy-'));
  folders.push(folder);
  const engine = SqliteEngine.open(join(folder, 'station.db'));
  engines.push(engine);
  return engine;
}

async function order(shared: SqliteEngine, orderId: string, updatedAt: string, status = 'draft'): Promise<void> {
  await shared.execute(
    `INSERT INTO orders (environment, order_id, order_ref, barcode, bundle_id, recipient, status, status_updated_at, source, created_at, updated_at)
     VALUES ('live', $1, $2, $3, NULL, NULL, $4, NULL, 'import', $5, $5)
     ON CONFLICT (environment, order_id) DO UPDATE SET status = excluded.status, updated_at = excluded.updated_at`,
    [orderId, `REF-${orderId}`, `BC-${orderId}`, status, updatedAt],
  );
}

const statuses = async (local: SqliteEngine) =>
  Object.fromEntries((await local.query<{ order_id: string; status: string }>('SELECT order_id, status FROM orders ORDER BY order_id')).map((row) => [row.order_id, row.status]));

describe('the bench\'s copy of the warehouse\'s orders', () => {
  it('copies the last week first, then only what changed, including a change stamped by a clock a minute behind', async () => {
    const shared = file();
    const local = file();
    let now = new Date('2026-11-24T06:00:00.000Z');
    const clock = () => now;
    await order(shared, 'OLD', '2026-11-10T06:00:00.000Z');
    await order(shared, 'WEEK', '2026-11-20T06:00:00.000Z');
    await order(shared, 'TODAY', '2026-11-24T05:59:00.000Z');
    expect(await copyChangedOrders({ shared, local, clock })).toBe(2);
    expect(await statuses(local)).toEqual({ TODAY: 'draft', WEEK: 'draft' });

    now = new Date('2026-11-24T07:00:00.000Z');
    await order(shared, 'WEEK', '2026-11-24T06:30:00.000Z', 'expected');
    // Written by a bench whose clock is a minute behind: stamped before the last copy's mark.
    await order(shared, 'SKEWED', '2026-11-24T05:58:00.000Z');
    const copied = await copyChangedOrders({ shared, local, clock });
    expect(await statuses(local)).toEqual({ SKEWED: 'draft', TODAY: 'draft', WEEK: 'expected' });
    // From five minutes before the mark: the skewed order, today's again, and the change.
    expect(copied).toBe(3);
  });

  it('reads several pages when more changed than one page holds', async () => {
    const shared = file();
    const local = file();
    for (let index = 0; index < 23; index += 1) await order(shared, `P${String(index).padStart(2, '0')}`, `2026-11-24T05:${String(index).padStart(2, '0')}:00.000Z`);
    // Two orders changed at the same moment straddle a page's end.
    await order(shared, 'SAME-A', '2026-11-24T05:30:00.000Z');
    await order(shared, 'SAME-B', '2026-11-24T05:30:00.000Z');
    expect(await copyChangedOrders({ shared, local, clock: () => new Date('2026-11-24T06:00:00.000Z'), pageSize: 4 })).toBe(25);
    expect(Object.keys(await statuses(local))).toHaveLength(25);
  });

  it('stops between pages when the station closes, and the next copy goes on from there', async () => {
    const shared = file();
    const local = file();
    for (let index = 0; index < 10; index += 1) await order(shared, `S${index}`, `2026-11-24T05:${String(index * 5).padStart(2, '0')}:00.000Z`);
    const clock = () => new Date('2026-11-24T06:00:00.000Z');
    expect(await copyChangedOrders({ shared, local, clock, pageSize: 4, stopping: () => true })).toBe(4);
    expect(Object.keys(await statuses(local))).toEqual(['S0', 'S1', 'S2', 'S3']);
    await copyChangedOrders({ shared, local, clock, pageSize: 4 });
    expect(Object.keys(await statuses(local))).toHaveLength(10);
  });
});
