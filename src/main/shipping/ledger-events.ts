/**
 * Lets the creation ledger hear the service's status events: the composition root calls this
 * from the status event processor's `onEvent`, inside the intake's transaction on the store both
 * live in, so an event carrying the orderRef of a parcel of unknown outcome settles it as created
 * (the event proves the order exists) together with the event itself.
 */
import type { WebhookPayload } from '../../shared/api/schemas';
import type { Environment } from '../../shared/contract/app';
import type { Logger } from '../logging/logger';
import type { StoreSession } from '../store';
import type { CreationLedger } from './creation-ledger';

export function ledgerHearsStatusEvents(ledger: CreationLedger, logger: Logger): (tx: StoreSession, environment: Environment, payload: WebhookPayload) => Promise<void> {
  return async (tx, environment, payload) => {
    if (payload.orderRef.trim() === '') return;
    const settled = await ledger.resolveFromEvent(
      environment,
      payload.orderRef,
      { orderId: payload.orderId, barcode: payload.barcode, bundleId: payload.orderBundle?.bundleId ?? null },
      tx,
    );
    if (settled) logger.info('an order of unknown outcome is confirmed created by its status event', { environment, orderRef: settled.orderRef, parcel: settled.parcel, status: payload.status });
  };
}
