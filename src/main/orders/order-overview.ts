/**
 * What the screen shows before anything is scanned: a few orders to try a first scan with, and the
 * day's bundles with how far their printing got. Both read the order index together with the print
 * journal, using the journal's own rule for "printed": a label that reached, or may have reached, a
 * printer (sent, printed, being sent, or uncertain without a decision) — the rule the duplicate
 * guard and bundle runs go by, so an order listed here as not printed is one a scan will print.
 */
import { terminalStatuses } from '../../shared/api/schemas';
import type { Environment } from '../../shared/contract/app';
import type { BundleSummaryData } from '../../shared/contract/orders';
import { StationError } from '../../shared/errors';
import type { StationDatabase } from '../store/database';
import type { IndexedOrder, OrderIndex } from './order-index';

const maybePrinted = `(j.state IN ('sent', 'printed') OR (j.state = 'uncertain' AND j.decided_at IS NULL) OR (j.state IN ('queued', 'fetched') AND j.sent_at IS NOT NULL))`;

const naturalOrder = new Intl.Collator('en', { numeric: true, sensitivity: 'variant' });

type BundleOrderRow = { bundle_id: string; order_id: string; order_ref: string | null; status: string | null; learnt_at: string; printed: number };

export interface BundleListOptions {
  /** Local day, YYYY-MM-DD. */
  day: string;
  /** Leave out bundles with nothing left to print. */
  unprintedOnly: boolean;
}

export class OrderOverview {
  private readonly sampleIds;
  private readonly bundleOrders;
  private readonly bundlePages;

  constructor(
    db: StationDatabase,
    private readonly index: OrderIndex,
  ) {
    this.sampleIds = db
      .prepare(
        // Walks the newest orders first and stops at the limit (the index only orders by time;
        // ties are sorted as they come), instead of sorting the whole environment. Only drafts: an
        // `expected` order was printed elsewhere and a trainee's scan of it asks before printing.
        `SELECT o.order_id FROM orders o INDEXED BY orders_by_learnt
         WHERE o.environment = ? AND o.status = 'draft'
           AND NOT EXISTS (SELECT 1 FROM print_journal j INDEXED BY print_journal_by_order WHERE j.environment = o.environment AND j.order_id = o.order_id AND ${maybePrinted})
         ORDER BY o.created_at DESC, (o.order_ref IS NULL), o.order_ref, o.order_id
         LIMIT ?`,
      )
      .raw(true);
    // Every order of each bundle that has an order learnt that day (a bundle's other orders may
    // have come earlier or later), with whether a label of it may have reached a printer.
    this.bundleOrders = db.prepare(
      `SELECT o.bundle_id, o.order_id, o.order_ref, o.status, o.created_at AS learnt_at,
              EXISTS (SELECT 1 FROM print_journal j INDEXED BY print_journal_by_order WHERE j.environment = o.environment AND j.order_id = o.order_id AND ${maybePrinted}) AS printed
       FROM orders o INDEXED BY orders_by_bundle
       WHERE o.environment = ? AND o.bundle_id IN (
         SELECT DISTINCT bundle_id FROM orders WHERE environment = ? AND bundle_id IS NOT NULL AND created_at >= ? AND created_at < ?
       )`,
    );
    // Bundles printed as the service's PDF (or its pages as images) have rows without an order id.
    this.bundlePages = db.prepare(
      `SELECT j.bundle_id, count(DISTINCT j.bundle_position) AS pages FROM print_journal j INDEXED BY print_journal_by_order
       WHERE j.environment = ? AND j.order_id IS NULL AND j.bundle_id IS NOT NULL AND ${maybePrinted}
       GROUP BY j.bundle_id`,
    );
  }

  /**
   * Orders a first scan prints at once: drafts with no label printed here yet; the latest learnt
   * first. `only`, when given, holds the order ids that may be offered (the embedded sandbox's
   * orders it prints as ZPL): the index may also hold orders the service does not know.
   */
  samples(environment: Environment, limit: number, only?: ReadonlySet<string>): IndexedOrder[] {
    // With a filter, read a wider window of candidates: most of them pass.
    const ids = this.sampleIds.all(environment, only ? Math.max(limit * 20, 200) : limit) as [string][];
    const chosen: IndexedOrder[] = [];
    for (const [orderId] of ids) {
      if (chosen.length >= limit) break;
      if (only && !only.has(orderId)) continue;
      const order = this.index.get(environment, orderId);
      if (order) chosen.push(order);
    }
    return chosen;
  }

  /** Bundles with an order the station learnt of on `day` (local time), in the order they arrived. */
  bundles(environment: Environment, options: BundleListOptions): BundleSummaryData[] {
    const { start, end } = localDayBounds(options.day);
    const rows = this.bundleOrders.all(environment, environment, start.toISOString(), end.toISOString()) as BundleOrderRow[];
    if (rows.length === 0) return [];
    const pagesPrinted = new Map((this.bundlePages.all(environment) as { bundle_id: string; pages: number }[]).map((row) => [row.bundle_id, row.pages]));

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
      const printedOrders = members.filter((member) => member.printed === 1).length;
      const printable = members.filter((member) => member.status === null || !isTerminal(member.status));
      const leftToPrint = pages < parcels && printable.some((member) => member.printed !== 1);
      // Cancelled or finished without a label here: nothing will print for them.
      const leftOut = members.filter((member) => member.printed !== 1 && member.status !== null && isTerminal(member.status)).length;
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
