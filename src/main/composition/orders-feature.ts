/**
 * The orders feature: finding an order by its scan, importing manifests into the index, the
 * files the main process picked, and the overview of the index the screen shows.
 */
import type { Environment } from '../../shared/contract/app';
import type { DeliveryClient } from '../api';
import type { EventBus } from '../contract/event-bus';
import { importsHandlers } from '../handlers/imports';
import { ordersHandlers } from '../handlers/orders';
import type { Logger } from '../logging/logger';
import { createManifestImporter, type ManifestImporter } from '../orders/manifest-import';
import type { OrderIndex } from '../orders/order-index';
import { createOrderLookup, type OrderLookup } from '../orders/order-lookup';
import { OrderOverview } from '../orders/order-overview';
import { createPickedFiles, type PickedFiles } from '../orders/picked-files';
import type { SandboxWiring } from '../sandbox-wiring';
import type { StationSettings } from '../settings/station-settings';
import type { StoreEngine } from '../store';

export interface OrdersFeatureDeps {
  engine: StoreEngine;
  index: OrderIndex;
  settings: StationSettings;
  events: EventBus;
  logger: Logger;
  clientFor(environment: Environment): Promise<DeliveryClient>;
  /** A sandbox scan is looked up once the sandbox has started and indexed its day of orders. */
  sandboxWiring: Pick<SandboxWiring, 'started' | 'zplOrderIds'>;
  /** The desktop app's own file dialog for a manifest; absent where there is none. */
  pickManifestFile?: () => Promise<string | null>;
}

export interface OrdersFeature {
  readonly lookup: OrderLookup;
  /** A lookup on another index (the bench's own copy of the orders, for printing offline), readied the same way. */
  lookupOn(index: OrderIndex): OrderLookup;
  readonly importer: ManifestImporter;
  readonly pickedFiles: PickedFiles;
  readonly handlers: ReturnType<typeof ordersHandlers> & ReturnType<typeof importsHandlers>;
}

export function ordersFeature(deps: OrdersFeatureDeps): OrdersFeature {
  const { engine, index, settings, events, logger, clientFor, sandboxWiring } = deps;
  const prepare = async (environment: Environment) => {
    if (environment === 'sandbox') await sandboxWiring.started();
  };
  const lookupOn = (onIndex: OrderIndex) => createOrderLookup({ index: onIndex, prepare, clientFor });
  const lookup = lookupOn(index);
  const importer = createManifestImporter({ engine, index, logger });
  const pickedFiles = createPickedFiles();
  const overview = new OrderOverview(engine, index);
  return {
    lookup,
    lookupOn,
    importer,
    pickedFiles,
    handlers: {
      ...ordersHandlers({ settings, index, lookup, overview, sandboxSampleIds: () => sandboxWiring.zplOrderIds() }),
      ...importsHandlers({ settings, importer, events, pickedFiles, pickManifestFile: deps.pickManifestFile }),
    },
  };
}
