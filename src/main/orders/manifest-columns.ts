/**
 * Which manifest column holds which fact. Headers are matched by name, ignoring case, spaces and
 * punctuation ("Order ID", "order_id" and "orderId" are one column), against the names the
 * service's own exports and common warehouse systems use; an explicit mapping wins.
 */
import { manifestFieldNames } from '../../shared/contract/imports';
import { StationError } from '../../shared/errors';

export const manifestFields = manifestFieldNames;
export type ManifestField = (typeof manifestFields)[number];
export type ColumnMapping = Partial<Record<ManifestField, string>>;

/** Column positions (from 0) of each field found, and the header text it was found under. */
export type ResolvedColumns = Record<ManifestField, { index: number; header: string } | null>;

const aliases: Record<ManifestField, string[]> = {
  orderId: ['orderid', 'ordernumber'],
  orderRef: ['orderref', 'orderreference', 'reference', 'ref'],
  barcode: ['barcode', 'parcelbarcode', 'trackingbarcode', 'parcelid'],
  bundleId: ['bundleid', 'orderbundleid', 'bundle', 'orderbundle'],
  recipient: ['recipient', 'recipientname', 'deliveryname'],
  status: ['status', 'orderstatus'],
};

const simplify = (header: string): string => header.toLowerCase().replace(/[^a-z0-9]/g, '');

export function resolveColumns(headers: readonly string[], mapping: ColumnMapping = {}): ResolvedColumns {
  const simplified = headers.map(simplify);
  const resolved = {} as ResolvedColumns;
  for (const field of manifestFields) {
    const wanted = mapping[field];
    let index: number;
    if (wanted !== undefined) {
      index = headers.findIndex((header) => header.trim() === wanted.trim());
      if (index < 0) index = simplified.indexOf(simplify(wanted));
      if (index < 0) {
        throw new StationError(
          'IMPORT_FAILED',
          `The file has no column "${wanted}" for ${field}. Its columns are: ${describeHeaders(headers)}.`,
        );
      }
    } else {
      index = simplified.findIndex((name) => aliases[field].includes(name));
    }
    resolved[field] = index >= 0 ? { index, header: headers[index] ?? '' } : null;
  }
  if (!resolved.orderId) {
    // A shop's export of orders not created yet (an address per row) is one of the other imports' files.
    const toCreate = ['locationid', 'deliverystreet'].every((column) => simplified.includes(column));
    throw new StationError(
      'IMPORT_FAILED',
      toCreate
        ? `The file has no orderId column: it lists orders to create (with their addresses), not orders created at the service. Import it as orders to ship (Scan) or as a spreadsheet upload (Shift start). Its columns are: ${describeHeaders(headers)}.`
        : `The file has no orderId column, and the station needs each order's id to fetch its label. Its columns are: ${describeHeaders(headers)}. Name the column "orderId" or choose it in the column mapping.`,
      undefined,
      { facts: { subject: toCreate ? 'orders-to-create' : 'no-order-id-column', columns: describeHeaders(headers).slice(0, 300) } },
    );
  }
  return resolved;
}

function describeHeaders(headers: readonly string[]): string {
  const shown = headers.filter((header) => header.trim() !== '').slice(0, 30).map((header) => `"${header.slice(0, 40)}"`);
  return shown.length > 0 ? shown.join(', ') : '(none: the first row is empty)';
}
