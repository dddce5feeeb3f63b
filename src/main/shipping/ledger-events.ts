/**
 * Lets the creation ledger hear the service's status events: the composition root calls this
 * from the status event processor's `onEvent`, so an event carrying the orderRef of a parcel of
 * unknown outcome settles it as created (the event proves the order exists).
 */
import type { WebhookPayload } from '../../shared/api/schemas';
import type { Environment } from '../../shared/contract/app';
import type { Logger } from '../logging/logger';
import type { CreationLedger } from './creation-ledger';

export function ledgerHearsStatusEvents(ledger: CreationLedger, logger: Logger): (environment: Environment, payload: WebhookPayload) => void {
  return (environment, payload) => {
    if (payload.orderRef.trim() === '') return;
    const settled = ledger.resolveFromEvent(environment, payload.orderRef, {
      orderId: payload.orderId,
      barcode: payload.barcode,
      bundleId: payload.orderBundle?.bundleId ?? null,
    });
    if (settled) logger.info('an order of unknown outcome is confirmed created by its status event', { environment, orderRef: settled.orderRef, parcel: settled.parcel, status: payload.status });
  };
}
