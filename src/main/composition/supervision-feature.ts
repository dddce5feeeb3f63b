/**
 * The supervision feature: voiding labels, closing the day, the pull notices and the status
 * timeline a lead reads, and following what other processes write (notices, webhook conflicts,
 * printers) so that it reaches this station's screen.
 */
import type { Environment } from '../../shared/contract/app';
import type { DeliveryClient } from '../api';
import { supervisionHandlers } from '../handlers/supervision';
import type { OrderIndex } from '../orders/order-index';
import type { OrderLookup } from '../orders/order-lookup';
import { byPlace, type PrintingPlaces } from './printing-feature';
import type { StationSettings } from '../settings/station-settings';
import type { CreatedWeights } from '../shipping/created-weights';
import type { StoreEngine, Subscription } from '../store';
import { createDayClose } from '../supervision/day-close';
import { printHandover } from '../supervision/handover-print';
import type { PullNotices } from '../supervision/pull-notices';
import type { StatusTimeline } from '../supervision/status-timeline';
import { createVoidService } from '../supervision/void-service';

/** Something written by any process that this one hears of by notification. */
export interface Followed {
  follow(): Promise<Subscription>;
}

export interface SupervisionFeatureDeps {
  engine: StoreEngine;
  index: OrderIndex;
  lookup: OrderLookup;
  clientFor(environment: Environment): Promise<DeliveryClient>;
  timeline: StatusTimeline;
  notices: PullNotices;
  weights: CreatedWeights;
  /** Followed in this order once the store answers (the notices, the webhook conflicts, the printers). */
  followed: Followed[];
  /** The printing whose journal a lead reads and whose printers print the handover: each call's place's. */
  printing: PrintingPlaces;
  onceReachable(work: () => Promise<void>): Promise<void>;
  settings: StationSettings;
  dataDir: string;
}

export interface SupervisionFeature {
  readonly handlers: ReturnType<typeof supervisionHandlers>;
  /** Stops following. */
  close(): Promise<void>;
}

export async function supervisionFeature(deps: SupervisionFeatureDeps): Promise<SupervisionFeature> {
  const { engine, index, lookup, timeline, notices, printing, settings } = deps;
  // Subscriptions made once the store answers, which may be after composing (a shared store offline).
  const following: Subscription[] = [];
  await deps.onceReachable(async () => {
    const subscriptions: Subscription[] = [];
    for (const followed of deps.followed) subscriptions.push(await followed.follow());
    following.push(...subscriptions);
  });
  const voids = createVoidService({ engine, index, lookup, clientFor: deps.clientFor });
  const dayClose = createDayClose({ engine, index, timeline, notices, weights: deps.weights, dataDir: deps.dataDir, benchName: () => settings.stationName() });
  return {
    handlers: byPlace(
      printing.each((core) =>
        supervisionHandlers({
          settings,
          voids,
          notices,
          timeline,
          dayClose,
          index,
          lookup,
          history: core.journal.history,
          printHandover: (environment, printer, handover, pdf) => printHandover({ printers: core.printers, transports: core.transports }, environment, printer, handover, pdf),
        }),
      ),
    ),
    async close() {
      for (const subscription of following) await subscription.close();
    },
  };
}
