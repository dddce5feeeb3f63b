/**
 * The bench's own copy of the warehouse's order index, for scans while the shared store is offline
 * (printing/offline): a packer scans a parcel barcode or an order ref, which only an index can
 * resolve. While the store answers, the orders changed since the last copy are read in pages (by
 * their change time, on an index of its own, never the whole table) and written into the bench's
 * file. The first copy takes the orders changed in the last week; later ones read a few minutes
 * back from where the last stopped, because the benches' clocks that stamped the changes may
 * differ a little (a row copied twice is simply the same row).
 */
import { z } from 'zod';
import type { StoreEngine } from './engine/store-engine';

const columns = ['environment', 'order_id', 'order_ref', 'barcode', 'bundle_id', 'recipient', 'status', 'status_updated_at', 'source', 'created_at', 'updated_at', 'voided_at', 'voided_by', 'void_reason'] as const;
const nullableText = z.string().nullable();
const OrderRowSchema = z.object({
  environment: z.enum(['sandbox', 'test', 'live']),
  order_id: z.string(),
  order_ref: nullableText,
  barcode: nullableText,
  bundle_id: nullableText,
  recipient: nullableText,
  status: nullableText,
  status_updated_at: nullableText,
  source: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  voided_at: nullableText,
  voided_by: nullableText,
  void_reason: nullableText,
});
type OrderRow = z.infer<typeof OrderRowSchema>;
const MarkSchema = z.object({ updatedAt: z.string() });
const markKey = 'orderCopyMark';

export interface OrderCopyOptions {
  /** The warehouse's shared store. */
  shared: StoreEngine;
  /** The bench's own file. */
  local: StoreEngine;
  clock?: () => Date;
  /** How far back the first copy reaches. Default 7 days. */
  firstWindowMs?: number;
  /** How far back each later copy starts before the last change it copied. Default 5 minutes. */
  overlapMs?: number;
  /** Orders per page (one query, one local transaction). Default 500. */
  pageSize?: number;
  /** Asked between pages: true stops the copy there (the station is closing); the next copy goes on from that page. */
  stopping?(): boolean;
}

/** Copies the orders changed since the last copy; returns how many rows it wrote. */
export async function copyChangedOrders(options: OrderCopyOptions): Promise<number> {
  const clock = options.clock ?? (() => new Date());
  const pageSize = options.pageSize ?? 500;
  const mark = await readMark(options.local);
  const since = mark ? new Date(Date.parse(mark.updatedAt) - (options.overlapMs ?? 5 * 60_000)) : new Date(clock().getTime() - (options.firstWindowMs ?? 7 * 24 * 3_600_000));
  let after: OrderRow | null = null;
  let copied = 0;
  for (;;) {
    const page: OrderRow[] = (
      after === null
        ? await options.shared.query(`SELECT ${columns.join(', ')} FROM orders WHERE updated_at >= $1 ORDER BY updated_at, environment, order_id LIMIT $2`, [since.toISOString(), pageSize])
        : await options.shared.query(
            `SELECT ${columns.join(', ')} FROM orders WHERE (updated_at, environment, order_id) > ($1, $2, $3) ORDER BY updated_at, environment, order_id LIMIT $4`,
            [after.updated_at, after.environment, after.order_id, pageSize],
          )
    ).map((row) => OrderRowSchema.parse(row));
    if (page.length === 0) break;
    await writePage(options.local, page);
    copied += page.length;
    after = page[page.length - 1] ?? null;
    if (after) await writeMark(options.local, after.updated_at);
    if (page.length < pageSize || options.stopping?.()) break;
    // Between pages the bench's own work goes first.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return copied;
}

async function writePage(local: StoreEngine, page: readonly OrderRow[]): Promise<void> {
  const placeholders = columns.map((_, index) => `$${index + 1}`).join(', ');
  const updates = columns
    .filter((column) => column !== 'environment' && column !== 'order_id')
    .map((column) => `${column} = excluded.${column}`)
    .join(', ');
  await local.transaction(
    async (tx) => {
      for (const row of page) {
        await tx.execute(
          `INSERT INTO orders (${columns.join(', ')}) VALUES (${placeholders}) ON CONFLICT (environment, order_id) DO UPDATE SET ${updates}`,
          columns.map((column) => row[column]),
        );
      }
    },
    { waitForDisk: false },
  );
}

async function readMark(local: StoreEngine): Promise<z.infer<typeof MarkSchema> | null> {
  const [row] = await local.query('SELECT value FROM settings WHERE scope = $1 AND key = $2', ['station', markKey]);
  if (!row || typeof row.value !== 'string') return null;
  try {
    const parsed = MarkSchema.safeParse(JSON.parse(row.value));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

async function writeMark(local: StoreEngine, updatedAt: string): Promise<void> {
  await local.execute(
    `INSERT INTO settings (scope, key, value, updated_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (scope, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
    ['station', markKey, JSON.stringify({ updatedAt }), new Date().toISOString()],
  );
}

export interface OrderCopyLoop {
  /** Copies now (after the copy under way, if any). */
  copyNow(): Promise<number>;
  /** Stops the loop once the page under way is written. */
  stop(): Promise<void>;
}

/**
 * Copies at once and then every `everyMs` while the shared store answers (a copy that fails is
 * logged and tried again next time): a bench that loses the store holds the orders of a minute ago.
 */
export function startOrderCopy(options: OrderCopyOptions & { everyMs: number; isOnline(): boolean; onError(error: unknown): void }): OrderCopyLoop {
  let running: Promise<number> = Promise.resolve(0);
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const copy = () => copyChangedOrders({ ...options, stopping: () => stopped });
  const copyNow = () => {
    running = running.then(copy, copy);
    return running;
  };
  const tick = () => {
    timer = null;
    if (stopped) return;
    const work = options.isOnline() ? copyNow() : Promise.resolve(0);
    work.catch(options.onError).finally(() => {
      if (stopped) return;
      timer = setTimeout(tick, options.everyMs);
      timer.unref();
    });
  };
  tick();
  return {
    copyNow,
    async stop() {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
      await running.catch(() => undefined);
    },
  };
}
