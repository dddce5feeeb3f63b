/**
 * What was printed: the journal's questions about labels that may have reached a printer, asked by
 * the duplicate guard (single scans, bundle planning, ships), the first-print guard and the screens.
 * It only reads.
 */
import { z } from 'zod';
import type { Environment } from '../../../shared/contract/app';
import type { StoreEngine, StoreSession } from '../../store';
import { entryColumns, firstRecord, parseRecord, toEntry } from './journal-rows';
import type { JournalRow, NewLabel } from './journal-types';

const BundleRecordSchema = z.object({ bundle_id: z.string() });
const IdentifierRecordSchema = z.object({ entry_id: z.number().int(), identifier: z.string() });

/** States in which a label may have reached the printer (the duplicate guard counts these). */
function maybePrintedAs(table: string): string {
  const column = (name: string) => (table ? `${table}.${name}` : name);
  return `(${column('state')} IN ('sent', 'printed') OR (${column('state')} = 'uncertain' AND ${column('decided_at')} IS NULL) OR (${column('state')} IN ('queued', 'fetched') AND ${column('sent_at')} IS NOT NULL))`;
}
const maybePrinted = maybePrintedAs('');

export class PrintHistory {
  constructor(private readonly engine: StoreEngine) {}

  /** The live first print holding this label's order (or bundle page), if any: the row the unique indexes compare against. */
  async liveFirstPrint(environment: Environment, label: Pick<NewLabel, 'orderId' | 'bundleId' | 'bundlePosition' | 'format'>): Promise<JournalRow | null> {
    const live = `guarded = 1 AND voided_at IS NULL AND (state IN ('queued', 'fetched', 'sent', 'printed') OR (state = 'uncertain' AND decided_at IS NULL))`;
    const record =
      label.orderId !== null
        ? await firstRecord(this.engine, `SELECT ${entryColumns} FROM print_journal WHERE environment = $1 AND order_id = $2 AND ${live}`, [environment, label.orderId])
        : label.bundleId !== null && label.bundlePosition !== null
          ? await firstRecord(
              this.engine,
              `SELECT ${entryColumns} FROM print_journal WHERE environment = $1 AND order_id IS NULL AND bundle_id = $2 AND format = $3 AND bundle_position = $4 AND ${live}`,
              [environment, label.bundleId, label.format, label.bundlePosition],
            )
          : undefined;
    return record ? toEntry(record) : null;
  }

  /**
   * The latest label of the order that may have reached a printer, or null, whatever route
   * printed it: the order's own label, or a bundle page whose text named the order (its parcel
   * barcode, order ref or id) printed before the station knew the order.
   */
  async previousPrint(environment: Environment, orderId: string): Promise<JournalRow | null> {
    return this.previousPrintIn(this.engine, environment, orderId);
  }

  private async previousPrintIn(session: StoreSession, environment: Environment, orderId: string): Promise<JournalRow | null> {
    // The order's own rows, and pages printed before their order was known whose text named it:
    // two indexed lookups (an OR across them would read every row of the environment).
    const record = await firstRecord(
      session,
      `SELECT ${entryColumns} FROM print_journal WHERE id = (SELECT max(id) FROM (
         SELECT id FROM print_journal WHERE environment = $1 AND order_id = $2 AND ${maybePrinted}
         UNION ALL
         SELECT j.id FROM print_label_identifiers i JOIN print_journal j ON j.id = i.entry_id
         WHERE i.environment = $1 AND j.order_id IS NULL AND ${maybePrintedAs('j')} AND i.identifier IN (
           $2,
           (SELECT order_ref FROM orders WHERE environment = $1 AND order_id = $2),
           (SELECT barcode FROM orders WHERE environment = $1 AND order_id = $2))) AS candidates)`,
      [environment, orderId],
    );
    return record ? toEntry(record) : null;
  }

  /** The latest label that may have reached a printer of an order a page's identifiers name (by order id, order ref or parcel barcode). */
  async previousPrintOfPage(environment: Environment, identifiers: readonly string[]): Promise<JournalRow | null> {
    const names = [...new Set(identifiers)];
    if (names.length === 0) return null;
    const list = names.map((_, index) => `$${index + 2}`).join(', ');
    const record = await firstRecord(
      this.engine,
      `SELECT ${entryColumns} FROM print_journal
       WHERE environment = $1 AND ${maybePrinted} AND order_id IN (
         SELECT order_id FROM orders WHERE environment = $1 AND (order_id IN (${list}) OR order_ref IN (${list}) OR barcode IN (${list}))
         UNION SELECT j.order_id FROM print_journal j WHERE j.environment = $1 AND j.order_id IN (${list}))
       ORDER BY id DESC LIMIT 1`,
      [environment, ...names],
    );
    return record ? toEntry(record) : null;
  }

  /** Pages of a bundle printed (or maybe printed) without a known order, each with the identifiers read from its text. */
  async printedPagesOf(environment: Environment, bundleId: string): Promise<{ entry: JournalRow; identifiers: string[] }[]> {
    const identifiers = new Map<number, string[]>();
    const identifierRecords = await this.engine.query(
      `SELECT i.entry_id, i.identifier FROM print_label_identifiers i JOIN print_journal j ON j.id = i.entry_id
       WHERE j.environment = $1 AND j.bundle_id = $2 AND j.order_id IS NULL`,
      [environment, bundleId],
    );
    for (const record of identifierRecords) {
      const row = parseRecord(IdentifierRecordSchema, record, 'label identifier');
      identifiers.set(row.entry_id, [...(identifiers.get(row.entry_id) ?? []), row.identifier]);
    }
    const pages = await this.engine.query(
      `SELECT ${entryColumns} FROM print_journal
       WHERE environment = $1 AND bundle_id = $2 AND order_id IS NULL AND bundle_position IS NOT NULL AND ${maybePrinted} ORDER BY id`,
      [environment, bundleId],
    );
    return pages.map((record) => {
      const entry = toEntry(record);
      return { entry, identifiers: identifiers.get(entry.id) ?? [] };
    });
  }

  /** The bundles among `bundleIds` with a label that may have reached a printer. */
  async bundlesPrinted(environment: Environment, bundleIds: readonly string[]): Promise<Set<string>> {
    const found = new Set<string>();
    // Chunks keep the statement under both engines' parameter limits.
    for (let start = 0; start < bundleIds.length; start += 500) {
      const chunk = bundleIds.slice(start, start + 500);
      const rows = await this.engine.query(
        `SELECT DISTINCT bundle_id FROM print_journal WHERE environment = $1 AND bundle_id IN (${chunk.map((_, index) => `$${index + 2}`).join(', ')}) AND ${maybePrinted}`,
        [environment, ...chunk],
      );
      for (const row of rows) found.add(parseRecord(BundleRecordSchema, row, 'bundle id').bundle_id);
    }
    return found;
  }

  async journal(environment: Environment, options: { orderId?: string; limit?: number } = {}): Promise<JournalRow[]> {
    const limit = options.limit ?? 100;
    const records = options.orderId
      ? await this.engine.query(`SELECT ${entryColumns} FROM print_journal WHERE environment = $1 AND order_id = $2 ORDER BY id DESC LIMIT $3`, [
          environment,
          options.orderId,
          limit,
        ])
      : await this.engine.query(`SELECT ${entryColumns} FROM print_journal WHERE environment = $1 ORDER BY id DESC LIMIT $2`, [environment, limit]);
    return records.map(toEntry);
  }
}
