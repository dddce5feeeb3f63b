/**
 * What the screen shows before anything is scanned: a few orders to try a first scan with, and the
 * day's bundles with how far their printing got. Both read the order index together with the print
 * journal, using the journal's own rule for "printed": a label that reached, or may have reached, a
 * printer (sent, printed, being sent, or uncertain without a decision) — the rule the duplicate
 * guard and bundle runs go by, so an order listed here as not printed is one a scan will print.
 */
import { z } from 'zod';
import { terminalStatuses } from '../../shared/api/schemas';
import type { Environment } from '../../shared/contract/app';
import type { BundleSummaryData } from '../../shared/contract/orders';
import { StationError } from '../../shared/errors';
import type { StoreEngine } from '../store';
import type { IndexedOrder, OrderIndex } from './order-index';

const maybePrinted = `(j.state IN ('sent', 'printed') OR (j.state = 'uncertain' AND j.decided_at IS NULL) OR (j.state IN ('queued', 'fetched') AND j.sent_at IS NOT NULL))`;

const naturalOrder = new Intl.Collator('en', { numeric: true, sensitivity: 'variant' });

const bundleOrderRow = z.object({ bundle_id: z.string(), order_id: z.string(), order_ref: z.string().nullable(), status: z.string().nullable(), learnt_at: z.string() });
type BundleOrderRow = z.infer<typeof bundleOrderRow> & { printed: boolean };
const bundlePagesRow = z.object({ bundle_id: z.string(), pages: z.number().int() });

/** Orders asked of the journal per statement. */
const chunkSize = 500;

export interface BundleListOptions {
  /** Local day, YYYY-MM-DD. */
  day: string;
  /** Leave out bundles with nothing left to print. */
  unprintedOnly: boolean;
}

/** The orders and the print journal, both read from the store engine (a warehouse's shared store, or the bench's file). */
export class OrderOverview {
  private readonly printedSql: string;
  private readonly bundlePagesSql: string;
  private readonly sampleSql: string;
  private readonly bundleSql: string;

  constructor(
    private readonly engine: StoreEngine,
    private readonly index: OrderIndex,
  ) {
    // SQLite without statistics would not use these indexes by itself (see order-index.ts).
    const hint = (name: string) => engine.dialect.indexHint(name);
    // Walks the newest orders first, a page at a time (the index only orders by time; ties are
    // sorted as they come), instead of sorting the whole environment. Only drafts: an `expected`
    // order was printed elsewhere and a trainee's scan of it asks before printing.
    this.sampleSql = `SELECT order_id FROM orders${hint('orders_by_learnt')} WHERE environment = $1 AND status = 'draft'
       ORDER BY created_at DESC, (order_ref IS NULL), order_ref, order_id LIMIT $2 OFFSET $3`;
    // Every order of each bundle that has an order learnt that day (a bundle's other orders may
    // have come earlier or later).
    this.bundleSql = `SELECT o.bundle_id, o.order_id, o.order_ref, o.status, o.created_at AS learnt_at
       FROM orders o${hint('orders_by_bundle')}
       WHERE o.environment = $1 AND o.bundle_id IN (
         SELECT DISTINCT bundle_id FROM orders WHERE environment = $1 AND bundle_id IS NOT NULL AND created_at >= $2 AND created_at < $3
       )`;
    const placeholders = Array.from({ length: chunkSize }, (_, index) => `$${index + 2}`).join(', ');
    // Whether a label of these orders may have reached a printer (unused slots are NULL, matching nothing).
    this.printedSql = `SELECT DISTINCT j.order_id FROM print_journal j${hint('print_journal_by_order')} WHERE j.environment = $1 AND j.order_id IN (${placeholders}) AND ${maybePrinted}`;
    // Bundles printed as the service's PDF (or its pages as images) have rows without an order id.
    this.bundlePagesSql = `SELECT j.bundle_id, count(DISTINCT j.bundle_position) AS pages FROM print_journal j${hint('print_journal_by_order')}
       WHERE j.environment = $1 AND j.order_id IS NULL AND j.bundle_id IS NOT NULL AND ${maybePrinted}
       GROUP BY j.bundle_id`;
  }

  /**
   * Orders a first scan prints at once: drafts with no label printed here yet; the latest learnt
   * first. `only`, when given, holds the order ids that may be offered (the embedded sandbox's
   * orders it prints as ZPL): the index may also hold orders the service does not know.
   */
  async samples(environment: Environment, limit: number, only?: ReadonlySet<string>): Promise<IndexedOrder[]> {
    // With a filter, read a wider window of candidates: most of them pass.
    const page = only ? Math.max(limit * 20, 200) : Math.max(limit * 4, 50);
    const chosen: string[] = [];
    // A bounded walk: a day where every recent draft is printed offers fewer samples, never a long wait.
    for (let offset = 0, pages = 0; chosen.length < limit && pages < 10; offset += page, pages += 1) {
      const rows = await this.engine.query(this.sampleSql, [environment, page, offset]);
      const ids = rows.map((row) => z.string().parse(row.order_id)).filter((orderId) => !only || only.has(orderId));
      const printed = await this.printed(environment, ids);
      for (const orderId of ids) if (chosen.length < limit && !printed.has(orderId)) chosen.push(orderId);
      if (rows.length < page) break;
    }
    const orders = await this.index.getMany(environment, chosen);
    return chosen.flatMap((orderId) => orders.get(orderId) ?? []);
  }

  /** Bundles with an order the station learnt of on `day` (local time), in the order they arrived. */
  async bundles(environment: Environment, options: BundleListOptions): Promise<BundleSummaryData[]> {
    const { start, end } = localDayBounds(options.day);
    const found = (await this.engine.query(this.bundleSql, [environment, start.toISOString(), end.toISOString()])).map((row) => bundleOrderRow.parse(row));
    if (found.length === 0) return [];
    const printed = await this.printed(environment, found.map((row) => row.order_id));
    const rows: BundleOrderRow[] = found.map((row) => ({ ...row, printed: printed.has(row.order_id) }));
    const pagesPrinted = new Map((await this.engine.query(this.bundlePagesSql, [environment])).map((row) => {
      const parsed = bundlePagesRow.parse(row);
      return [parsed.bundle_id, parsed.pages];
    }));

    const byBundle = new Map<string, BundleOrderRow[]>();
    for (const row of rows) {
      const members = byBundle.get(row.bundle_id);
      if (members) members.push(row);
      else byBundle.set(row.bundle_id, [row]);
    }
    const bundles: { summary: BundleSummaryData; arrived: string; leftToPrint: boolean }[] = [];
    for (const [bundleId, members] of byBundle) {
      const parcels = members.length;
      const pages = pagesPrinted.get(bundleId) ?? 0;
      const printedOrders = members.filter((member) => member.printed).length;
      const printable = members.filter((member) => member.status === null || !isTerminal(member.status));
      const leftToPrint = pages < parcels && printable.some((member) => !member.printed);
      // Cancelled or finished without a label here: nothing will print for them.
      const leftOut = members.filter((member) => !member.printed && member.status !== null && isTerminal(member.status)).length;
      const orderRefs = members
        .flatMap((member) => (member.order_ref === null ? [] : [member.order_ref]))
        .sort((a, b) => naturalOrder.compare(a, b));
      bundles.push({
        summary: { bundleId, parcels, printed: Math.min(parcels, printedOrders + pages), orderRefs, ...(leftOut > 0 ? { leftOut: Math.min(leftOut, parcels - Math.min(parcels, printedOrders + pages)) } : {}) },
        arrived: members.reduce((earliest, member) => (member.learnt_at < earliest ? member.learnt_at : earliest), members[0]?.learnt_at ?? ''),
        leftToPrint,
      });
    }
    return bundles
      .filter((bundle) => !options.unprintedOnly || bundle.leftToPrint)
      .sort((a, b) => (a.arrived === b.arrived ? naturalOrder.compare(a.summary.bundleId, b.summary.bundleId) : a.arrived < b.arrived ? -1 : 1))
      .map((bundle) => bundle.summary);
  }

  /** Which of these orders have a label that may have reached a printer (the journal's rule). */
  private async printed(environment: Environment, orderIds: readonly string[]): Promise<Set<string>> {
    const printed = new Set<string>();
    const unique = [...new Set(orderIds)];
    for (let start = 0; start < unique.length; start += chunkSize) {
      const ids: (string | null)[] = unique.slice(start, start + chunkSize);
      while (ids.length < chunkSize) ids.push(null);
      for (const row of await this.engine.query(this.printedSql, [environment, ...ids])) printed.add(z.string().parse(row.order_id));
    }
    return printed;
  }
}

function isTerminal(status: string): boolean {
  return (terminalStatuses as readonly string[]).includes(status);
}

/** Today as YYYY-MM-DD in the station's local time. */
export function localDay(now: Date = new Date()): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** Local midnight of the day and of the next day; INVALID_INPUT for a day that does not exist. */
export function localDayBounds(day: string): { start: Date; end: Date } {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  const [year, month, date] = match ? [Number(match[1]), Number(match[2]), Number(match[3])] : [NaN, NaN, NaN];
  const start = new Date(year, month - 1, date);
  if (!match || start.getFullYear() !== year || start.getMonth() !== month - 1 || start.getDate() !== date) {
    throw new StationError('INVALID_INPUT', `${day.slice(0, 40)} is not a day of the calendar; give it as YYYY-MM-DD.`);
  }
  return { start, end: new Date(year, month - 1, date + 1) };
}
