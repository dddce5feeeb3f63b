/**
 * One label identity whatever route printed it. A label is the service's order. A page of a
 * bundle PDF printed before the station knew the bundle's orders carries its order in its text
 * (the parcel barcode in plain text under the barcode, the order ref, often the order id), so the
 * page's identifiers are kept with its journal row and matched against the order index whenever
 * the duplicate guard is asked about an order. A page whose text names no order is guarded by
 * bundle + page.
 */
import { normalizeIdentifier } from '../../../shared/scan';

/** Enough for every identifier a label shows; the rest of a page (address lines, dates) is not kept. */
const MAX_IDENTIFIERS_PER_PAGE = 40;
/**
 * Order refs, parcel barcodes and order ids are at least this long and hold a digit. Shorter
 * words (a house number, "NL", "1 of 3") would let one order's ref match an unrelated page.
 */
const MIN_IDENTIFIER_LENGTH = 6;
const MAX_IDENTIFIER_LENGTH = 64;

function plausible(text: string): boolean {
  return text.length >= MIN_IDENTIFIER_LENGTH && text.length <= MAX_IDENTIFIER_LENGTH && /\d/.test(text) && !/\s/.test(text);
}

/**
 * The identifiers a page's text items may be: each item whole, each item without its spaces (a
 * barcode printed in groups, "3S PSB 001 4411"), and each word; normalised as a scan is, so they
 * compare equal with the order index's identifiers.
 */
export function identifiersFromText(items: readonly string[]): string[] {
  const found = new Set<string>();
  const add = (candidate: string): void => {
    const identifier = normalizeIdentifier(candidate);
    if (identifier !== null && plausible(identifier)) found.add(identifier);
  };
  for (const item of items) {
    if (found.size >= MAX_IDENTIFIERS_PER_PAGE) break;
    const text = item.trim();
    if (text.length === 0 || text.length > 4 * MAX_IDENTIFIER_LENGTH) continue;
    add(text);
    add(text.replace(/\s+/g, ''));
    for (const word of text.split(/[\s,;]+/)) add(word);
  }
  return [...found].slice(0, MAX_IDENTIFIERS_PER_PAGE);
}

export interface OrderIdentity {
  orderId: string;
  orderRef: string | null;
  barcode: string | null;
}

/** Whether a page's identifiers name the order. */
export function pageNamesOrder(identifiers: readonly string[], order: OrderIdentity): boolean {
  const wanted = [order.orderId, order.orderRef, order.barcode].filter((value): value is string => value !== null && value.length > 0);
  return wanted.some((value) => identifiers.includes(value));
}
