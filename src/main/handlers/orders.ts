import type { HandlersOf } from '../contract/dispatcher';
import type { OrderIndex } from '../orders/order-index';
import type { OrderLookup } from '../orders/order-lookup';
import { localDay, type OrderOverview } from '../orders/order-overview';
import { checkPrintable } from '../orders/printability';
import type { StationSettings } from '../settings/station-settings';
import type { ordersCalls } from '../../shared/contract/orders';

export interface OrdersHandlerDeps {
  settings: StationSettings;
  index: OrderIndex;
  lookup: OrderLookup;
  overview: OrderOverview;
  /** Readies the current environment's orders (the embedded sandbox indexes its day of orders). */
  /** Today's date, for the day's bundles. */
  clock?: () => Date;
  /** The embedded sandbox's orders that print as ZPL: the only sample orders offered on the sandbox. */
  sandboxSampleIds?: () => ReadonlySet<string> | null;
}


export function ordersHandlers(deps: OrdersHandlerDeps): HandlersOf<typeof ordersCalls> {
  const clock = deps.clock ?? (() => new Date());
  return {
    'orders.lookup': async ({ scan, remote }) => {
      const environment = deps.settings.environment();
      const found = await deps.lookup.lookup(environment, scan, { remote: remote !== false });
      const printable = checkPrintable(found.order);
      return {
        order: found.order,
        matchedBy: found.matchedBy,
        printable: { allowed: printable.allowed, message: printable.allowed ? null : printable.message },
      };
    },
    'orders.count': async (_input, { session }) => {
      // A count is still an answer when the sandbox cannot start: what the index holds.
      await session.ready().catch(() => undefined);
      const environment = deps.settings.environment();
      return { environment, orders: await deps.index.count(environment) };
    },
    'orders.samples': async ({ limit }, { session }) => {
      await session.ready();
      const environment = deps.settings.environment();
      const only = environment === 'sandbox' ? (deps.sandboxSampleIds?.() ?? undefined) : undefined;
      return { orders: await deps.overview.samples(environment, limit ?? 5, only) };
    },
    'orders.bundles': async ({ day, unprintedOnly }, { session }) => {
      await session.ready();
      return { bundles: await deps.overview.bundles(deps.settings.environment(), { day: day ?? localDay(clock()), unprintedOnly: unprintedOnly !== false }) };
    },
  };
}
