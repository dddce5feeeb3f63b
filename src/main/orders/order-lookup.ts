/**
 * Resolves a scan to one order: normalise, look in the index, and for a scan the index does not
 * know, one direct try of the text as an order id against the label endpoint (a label that comes
 * back proves the order exists; it is handed on so the printing code need not fetch it again).
 */
import type { Environment } from '../../shared/contract/app';
import { StationError } from '../../shared/errors';
import { caseVariants, identifierKey } from '../../shared/identifiers';
import { layoutMixups, type LayoutMixup } from '../../shared/keyboard/layout-mixups';
import { GROUP_SEPARATOR, normalizeScan } from '../../shared/scan';
import type { DeliveryClient, LabelRequest, OrderLabel } from '../api';
import type { IndexedOrder, MatchField, OrderIndex, OrderMatch } from './order-index';

export interface LookupOptions {
  /** Ask the Delivery API when the index does not know the scan. Default true. */
  remote?: boolean;
  /** The label request for the direct try (the printer's format and pinned orientation). Default ZPL. */
  labelRequest?: LabelRequest;
}

export interface LookupResult {
  order: IndexedOrder;
  matchedBy: MatchField[] | ['service'];
  /** The label fetched by the direct try, when that is how the order was found. */
  label?: OrderLabel;
}

export interface OrderLookupDeps {
  index: OrderIndex;
  /** Runs before the index is searched (the embedded sandbox seeds its day of orders). */
  prepare?(environment: Environment): Promise<void>;
  clientFor(environment: Environment): Promise<DeliveryClient>;
}

export interface OrderLookup {
  lookup(environment: Environment, scan: string, options?: LookupOptions): Promise<LookupResult>;
}

/** How many of the orders a scan fits are named in the refusal's lines (for the log and the CLI). */
const maxCandidatesShown = 5;

/**
 * A scan that fits more than one order (SCAN_AMBIGUOUS): the station will not guess. It carries
 * the orders, so the scan screen can offer them for the packer to choose from.
 */
export class AmbiguousScan extends StationError {
  constructor(
    readonly scan: string,
    readonly matches: readonly OrderMatch[],
  ) {
    const shown = matches.slice(0, maxCandidatesShown).map(({ order, matchedBy }) => describeCandidate(order, matchedBy));
    if (matches.length > maxCandidatesShown) shown.push(`and ${matches.length - maxCandidatesShown} more`);
    super('SCAN_AMBIGUOUS', `"${scan}" matches ${matches.length} orders, so the station will not guess. Scan the parcel barcode or the order id instead.`, shown, {
      facts: { count: matches.length },
    });
    this.name = 'AmbiguousScan';
  }
}

export function createOrderLookup(deps: OrderLookupDeps): OrderLookup {
  return {
    async lookup(environment, scan, options = {}) {
      const normalized = normalizeScan(scan);
      if (!normalized.ok) throw new StationError('SCAN_INVALID', normalized.message, [`reason: ${normalized.reason}`]);
      const value = normalized.value;
      await deps.prepare?.(environment);

      const exact = await deps.index.find(environment, value);
      const matches = exact.length > 0 ? exact : await findIgnoringCase(deps.index, environment, value);
      if (matches.length > 1) throw new AmbiguousScan(value, matches);
      const [match] = matches;
      if (match) return { order: match.order, matchedBy: match.matchedBy };

      if (options.remote === false) throw notFound(value, false);
      if (value.includes(GROUP_SEPARATOR)) throw notFound(value, false, await likelyMixup(deps.index, environment, value));
      const client = await deps.clientFor(environment);
      let label: OrderLabel;
      try {
        label = await client.getLabel(value, options.labelRequest ?? { format: 'zpl' });
      } catch (error) {
        if (error instanceof StationError && (error.code === 'ORDER_NOT_FOUND' || error.code === 'VALIDATION')) throw notFound(value, true, await likelyMixup(deps.index, environment, value));
        if (error instanceof StationError) {
          throw new StationError(
            error.code,
            `"${value}" is not in the station's order index, and the Delivery API could not be asked whether it is an order id: ${error.message}`,
            error.details,
            { cause: error },
          );
        }
        throw error;
      }
      await deps.index.upsert(environment, { orderId: value }, 'lookup');
      const order = await deps.index.get(environment, value);
      if (!order) throw new StationError('INTERNAL', 'The order that was just recorded could not be read back.');
      return { order, matchedBy: ['service'], label };
    },
  };
}

/**
 * When the exact scan matches nothing: the same scan in the other cases (a scanner typing with
 * Caps Lock on sends `nw-104354-4` for `NW-104354-4`). Each variant is an exact, indexed lookup,
 * all asked in one query, so an unknown scan costs one more round trip, never a scan of every order; one order found
 * is the answer, more than one is an ambiguity the packer resolves.
 */
async function findIgnoringCase(index: OrderIndex, environment: Environment, value: string): Promise<OrderMatch[]> {
  return index.findAny(environment, caseVariants(value));
}

/**
 * A scan that is no order may be one read through the wrong keyboard layout (a scanner typing
 * for US keys into a French PC's entry field, or a scanner layout chosen wrongly in Setup): the
 * mix-up whose reading is the name of exactly one known order, or null. Only the order index is
 * asked, in one query. It names the mix-up; it never stands for the scan.
 */
async function likelyMixup(index: OrderIndex, environment: Environment, value: string): Promise<LayoutMixup | null> {
  const mixups = layoutMixups(value);
  if (mixups.length === 0) return null;
  const matches = await index.findAny(environment, [...new Set(mixups.flatMap((mixup) => [mixup.text, ...caseVariants(mixup.text)]))]);
  const orders = new Map(matches.map((match) => [match.order.orderId, match.order]));
  const [order, ...others] = orders.values();
  if (!order || others.length > 0) return null;
  const names = [order.orderRef, order.barcode, order.orderId].filter((name): name is string => name !== null).map(identifierKey);
  return mixups.find((mixup) => names.includes(identifierKey(mixup.text))) ?? null;
}

function notFound(value: string, askedService: boolean, mixup: LayoutMixup | null = null): StationError {
  if (mixup) {
    return new StationError(
      'ORDER_NOT_FOUND',
      `No order matches "${value}". It looks like a scanner typing for a ${mixup.typedAs.toUpperCase()} keyboard read through a ${mixup.readAs.join(' or ').toUpperCase()} keyboard layout: read as the scanner meant it, it is ${mixup.text}. Check Setup › Scanner; nothing was printed.`,
      undefined,
      { facts: { subject: 'keyboard-layout', readAs: mixup.readAs.join(','), typedAs: mixup.typedAs, meant: mixup.text } },
    );
  }
  const where = askedService
    ? "It is not in the station's order index and is not an order id the Delivery API knows."
    : "It is not in the station's order index.";
  return new StationError('ORDER_NOT_FOUND', `No order matches "${value}". ${where} Check the scan, or import today's manifest.`);
}

function describeCandidate(order: IndexedOrder, matchedBy: MatchField[]): string {
  const ref = order.orderRef ? `ref ${order.orderRef}, ` : '';
  const status = order.status ? `, ${order.status}` : '';
  return `order ${order.orderId} (${ref}matched by ${matchedBy.join(' and ')}${status})`;
}
