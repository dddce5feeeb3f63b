import type { Handlers } from '../contract/dispatcher';
import type { OrderIndex } from '../orders/order-index';
import type { OrderLookup } from '../orders/order-lookup';
import { checkPrintable } from '../orders/printability';
import type { StationSettings } from '../settings/station-settings';

export interface OrdersHandlerDeps {
  settings: StationSettings;
  index: OrderIndex;
  lookup: OrderLookup;
}

export function ordersHandlers(deps: OrdersHandlerDeps): Pick<Handlers, 'orders.lookup' | 'orders.count'> {
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
    'orders.count': () => {
      const environment = deps.settings.environment();
      return { environment, orders: deps.index.count(environment) };
    },
  };
}
