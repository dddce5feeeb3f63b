/**
 * Lets the creation ledger hear the service's status events without changing the webhook
 * receiver: the composition root wraps the status event processor with this, so every accepted
 * event is also offered to the ledger (which settles an unknown parcel carrying that orderRef)
 * before it goes on to the order index as before.
 */
import type { WebhookPayload } from '../../shared/api/schemas';
import type { Environment } from '../../shared/contract/app';
import type { Logger } from '../logging/logger';
import type { StatusEventProcessor } from '../orders/status-events';
import type { CreationLedger } from './creation-ledger';

export function withCreationLedger(processor: StatusEventProcessor, ledger: CreationLedger, logger: Logger): StatusEventProcessor {
  const offer = (environment: Environment, payload: WebhookPayload) => {
    if (payload.orderRef.trim() === '') return;
    try {
      const settled = ledger.resolveFromEvent(environment, payload.orderRef, {
        orderId: payload.orderId,
        barcode: payload.barcode,
        bundleId: payload.orderBundle?.bundleId ?? null,
      });
      if (settled) logger.info('an order of unknown outcome is confirmed created by its status event', { environment, orderRef: settled.orderRef, parcel: settled.parcel, status: payload.status });
    } catch (error) {
      logger.error('the creation ledger could not read a status event', { environment, error: error instanceof Error ? error.message : String(error) });
    }
  };
  return {
    enqueue(environment, payload) {
      const accepted = processor.enqueue(environment, payload);
      if (accepted) offer(environment, payload);
      return accepted;
    },
    drained: () => processor.drained(),
    queueLength: () => processor.queueLength(),
    counters: () => processor.counters(),
  };
}
