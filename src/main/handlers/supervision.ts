import { readFileSync } from 'node:fs';
import type { HandlersOf } from '../contract/dispatcher';
import type { OrderIndex } from '../orders/order-index';
import type { OrderLookup } from '../orders/order-lookup';
import { localDay } from '../orders/order-overview';
import type { PrintHistory } from '../printing/journal/print-history';
import type { StationSettings } from '../settings/station-settings';
import type { Environment } from '../../shared/contract/app';
import type { HandoverData } from '../../shared/contract/supervision';
import type { DayClose } from '../supervision/day-close';
import type { PullNotices } from '../supervision/pull-notices';
import type { StatusTimeline } from '../supervision/status-timeline';
import type { VoidService } from '../supervision/void-service';
import type { supervisionCalls } from '../../shared/contract/supervision';

export interface SupervisionHandlerDeps {
  settings: StationSettings;
  voids: VoidService;
  notices: PullNotices;
  timeline: StatusTimeline;
  dayClose: DayClose;
  index: OrderIndex;
  lookup: OrderLookup;
  history: PrintHistory;
  /** Readies the current environment's orders (the embedded sandbox indexes its day of orders). */
  printHandover(environment: Environment, printer: string, handover: HandoverData, pdf: Uint8Array): Promise<NonNullable<HandoverData['printed']>>;
  clock?: () => Date;
}


/** Statuses the service only gives an order once its label was printed (somewhere). */
const labelPrintedStatuses = new Set(['expected', 'in_transit', 'out_for_delivery', 'awaiting_next_attempt', 'at_pickup_point', 'completed', 'failed']);

export function supervisionHandlers(deps: SupervisionHandlerDeps): HandlersOf<typeof supervisionCalls> {
  const clock = deps.clock ?? (() => new Date());
  return {
    'supervision.cancel': async (request, { session }) => {
      await session.ready();
      return deps.voids.cancel(deps.settings.environment(), request);
    },
    'supervision.cancelBundle': async (request, { session }) => {
      await session.ready();
      return deps.voids.cancelBundle(deps.settings.environment(), request);
    },
    'supervision.notices': ({ includeAcknowledged, limit }) => deps.notices.list(deps.settings.environment(), { includeAcknowledged, limit }),
    'supervision.acknowledge': ({ id, by }) => deps.notices.acknowledge(deps.settings.environment(), id, by),
    'supervision.whereabouts': async ({ scan }, { session }) => {
      await session.ready();
      const environment = deps.settings.environment();
      const { order } = await deps.lookup.lookup(environment, scan, { remote: false });
      const timeline = await deps.timeline.of(environment, order.orderId);
      const here = await deps.history.previousPrint(environment, order.orderId);
      const everPrinted = (order.status !== null && labelPrintedStatuses.has(order.status)) || timeline.some((entry) => labelPrintedStatuses.has(entry.status));
      return {
        order,
        timeline,
        trackingUrl: (await deps.timeline.facts(environment, order.orderId)).trackingUrl,
        printed: here ? 'here' : everPrinted ? 'elsewhere' : 'not-yet',
        printedAt: here ? (here.printedAt ?? here.sentAt ?? here.queuedAt) : null,
        notices: await deps.notices.ofOrder(environment, order.orderId),
        labels: (await deps.history.journal(environment, { orderId: order.orderId, limit: 50 })).map((entry) => ({
          id: entry.id,
          state: entry.voidedAt ? 'voided' : entry.state,
          printerId: entry.printerId,
          operator: entry.operator,
          queuedAt: entry.queuedAt,
          printedAt: entry.printedAt ?? entry.sentAt,
          voidedAt: entry.voidedAt ?? null,
          voidedBy: entry.voidedBy ?? null,
          voidReason: entry.voidReason ?? null,
        })),
      };
    },
    'supervision.dayClose': async ({ day, location, pdf, printer }, { session }) => {
      const environment = deps.settings.environment();
      const handover = await deps.dayClose.handover(environment, { day: day ?? localDay(clock()), location, pdf: pdf || printer !== undefined });
      if (printer === undefined || !handover.pdfPath) return handover;
      await session.ready();
      return { ...handover, printed: await deps.printHandover(environment, printer, handover, readFileSync(handover.pdfPath)) };
    },
  };
}
