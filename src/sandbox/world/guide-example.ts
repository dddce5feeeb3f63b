/**
 * The order the station's first-hour guide lists in its manifest template
 * (src/shared/import-templates.ts), held by the test environment as an order Noordwind Webwinkel
 * created at the start of the day at its Amsterdam location. A trainee who imports the template as
 * it is can scan its barcode and see its label print, as with an order of a real manifest.
 *
 * It is not one of the seed's orders (not listed among today's orders, so a station does not
 * learn it before the manifest is imported), and its identifiers and numeric ids lie outside every
 * range the seed and POST /orders draw from, so it never stands in the way of one of them.
 */
import { manifestExampleOrder } from '../../shared/import-templates';
import { homeCarrier } from './carriers';
import { nextDeliveryDay, startOfLocalDay } from './dates';
import { formatAddressLine } from './orders';
import type { EnvironmentState, Order, PostalAddress } from './types';

/** Below the environment's ranges (bundles from 7001, orders from 100001). */
const exampleIds = { bundle: 6_999, order: 99_999 } as const;
const company = 'noordwind';
const location = 1101;
const address: PostalAddress = { street: 'Prinsengracht', houseNumber: '263', suffix: '', postalCode: '1016GV', city: 'Amsterdam', countryCode: 'NL' };

/** Adds the guide's example order to the test environment (the station's sandbox); other environments are left as they are. */
export function addGuideExample(env: EnvironmentState, options: { now: number; trackingBase: string }): void {
  if (env.name !== 'test' || !env.locations.has(location)) return;
  const example = manifestExampleOrder;
  const createdAt = startOfLocalDay(options.now);
  env.bundles.set(example.bundleId, { id: exampleIds.bundle, bundleId: example.bundleId, companyId: company, locationId: location, orderIds: [example.orderId], createdAt });
  const deliveryDate = nextDeliveryDay(createdAt);
  const order: Order = {
    id: exampleIds.order,
    orderId: example.orderId,
    orderRef: example.orderRef,
    status: example.status,
    name: 'Boekenpakket',
    barcode: example.barcode,
    pudoId: undefined,
    carrier: homeCarrier(address.countryCode),
    trackingUrl: `${options.trackingBase}/${example.barcode}`,
    deliveryName: example.recipient,
    deliveryEmail: 'daan.visser@mail.example',
    deliveryPhone: '+31 6 23456789',
    deliveryNote: '',
    address,
    addressLine: formatAddressLine(address),
    isBusiness: false,
    mailbox: false,
    dimensions: { length: 300, width: 200, height: 100 },
    weight: 1200,
    signature: false,
    notAtNeighbour: false,
    deliveryEta: '12:00 - 14:00',
    deliveryEtaDate: deliveryDate,
    deliveryDate,
    locationId: location,
    companyId: company,
    createdAt,
    updatedAt: createdAt,
    labelReadyAt: createdAt,
    bundle: { id: exampleIds.bundle, bundleId: example.bundleId },
    attempt: 0,
    sortedAt: undefined,
    completedAt: undefined,
    signee: undefined,
    riderNote: undefined,
    neighbourAddress: undefined,
    seeded: false,
  };
  env.orders.set(order.orderId, order);
}
