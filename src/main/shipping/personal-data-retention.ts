/**
 * How long the station keeps recipients' personal data it was handed for shipping: the names,
 * addresses, e-mail addresses and phone numbers of orders to ship, and the cells of spreadsheet
 * uploads. Both are working copies (the service keeps the orders it created; the shop keeps its
 * export), so after `personalDataRetentionDays` without a change they are deleted:
 *
 * - an order to ship not imported or changed again for that long;
 * - an upload that is finished, cancelled or only previewed, not touched for that long, with its
 *   rows (a running or paused upload is kept until it ends).
 *
 * The sweep runs when the station starts and then once a day; on a shared store every bench sweeps,
 * and the deletes are the same whoever runs them first. The creation ledger keeps no personal data
 * (order refs, order ids, barcodes) and is not swept here.
 */
import type { Logger } from '../logging/logger';
import type { StoreEngine } from '../store';
import { errorText } from '../../shared/error-text';

export const personalDataRetentionDays = 30;
const dayMs = 24 * 60 * 60 * 1000;

export interface RetentionSweep {
  /** Deletes what is past retention now; answers what went. */
  sweep(): Promise<{ toShipRows: number; uploads: number; uploadRows: number }>;
  /** Sweeps now and then daily until stopped. */
  start(): void;
  /** Stops the daily sweep; waits for one under way. */
  stop(): Promise<void>;
}

export function createPersonalDataRetention(deps: { engine: StoreEngine; logger: Logger; clock?: () => Date; days?: number }): RetentionSweep {
  const clock = deps.clock ?? (() => new Date());
  const days = deps.days ?? personalDataRetentionDays;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;

  const sweep = async () => {
    const cutoff = new Date(clock().getTime() - days * dayMs).toISOString();
    return deps.engine.transaction(async (tx) => {
      const toShip = await tx.execute('DELETE FROM to_ship_orders WHERE updated_at < $1', [cutoff]);
      const ended = "state IN ('finished', 'cancelled', 'previewed') AND updated_at < $1";
      const rows = await tx.execute(`DELETE FROM upload_rows WHERE upload_id IN (SELECT id FROM uploads WHERE ${ended})`, [cutoff]);
      const uploads = await tx.execute(`DELETE FROM uploads WHERE ${ended}`, [cutoff]);
      return { toShipRows: toShip.changes, uploads: uploads.changes, uploadRows: rows.changes };
    });
  };

  const sweepAndLog = async () => {
    try {
      const gone = await sweep();
      if (gone.toShipRows + gone.uploads > 0) deps.logger.info('personal data past its retention deleted', { days, ...gone });
    } catch (error) {
      // The store may be offline: the next sweep tries again.
      deps.logger.warn('the personal data retention sweep could not run', { error: errorText(error) });
    }
  };

  return {
    sweep,
    start() {
      if (timer) return;
      running = sweepAndLog();
      timer = setInterval(() => {
        running = sweepAndLog();
      }, dayMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
}
