/**
 * A Delivery API client that tells the order index what its answers reveal: an order the station
 * creates is indexed with its ref, barcode, bundle and status at once (so its packing slip scans
 * before any manifest or webhook arrives), and a cancellation records the cancelled status.
 */
import type { Environment } from '../../shared/contract/app';
import type { OrderRecord } from '../../shared/api/schemas';
import type { DeliveryClient } from '../api';
import type { Logger } from '../logging/logger';
import type { OrderFacts, OrderIndex, OrderSource } from './order-index';
import { errorText } from '../../shared/error-text';

export function createLearningClient(environment: Environment, client: DeliveryClient, index: OrderIndex, logger: Logger): DeliveryClient {
  const learn = async (record: OrderRecord, source: OrderSource) => {
    try {
      await index.upsert(environment, factsFromRecord(record), source);
    } catch (error) {
      // The call itself succeeded; a failure to remember it must not turn into a failed call.
      logger.error('could not record an order in the index', { orderId: record.orderId, error: errorText(error) });
    }
  };
  return {
    baseUrl: client.baseUrl,
    checkAddress: (locationId, request) => client.checkAddress(locationId, request),
    checkPostalCode: (locationId, request) => client.checkPostalCode(locationId, request),
    coverage: (locationId) => client.coverage(locationId),
    searchPickupPoints: (query) => client.searchPickupPoints(query),
    getLabel: (orderId, request) => client.getLabel(orderId, request),
    getBundleLabels: (bundleId) => client.getBundleLabels(bundleId),
    close: () => client.close(),
    async createOrder(request) {
      const created = await client.createOrder(request);
      await learn(created, 'created');
      return created;
    },
    async cancelOrder(orderId) {
      const record = await client.cancelOrder(orderId);
      await learn(record, 'api');
      return record;
    },
  };
}

export function factsFromRecord(record: OrderRecord): OrderFacts {
  return {
    orderId: record.orderId,
    orderRef: record.orderRef,
    barcode: record.barcode,
    bundleId: record.orderBundle?.bundleId ?? null,
    recipient: record.deliveryName ?? null,
    status: record.status,
    statusUpdatedAt: record.updatedAt,
  };
}
