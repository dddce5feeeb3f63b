/**
 * Both environments of the sandbox and the operations on them that the public API and the
 * operator controls share: status moves (which fire webhooks) and resetting to the seed.
 */
import type { OrderStatus } from '../../shared/api/schemas';
import { externalLabelCarriers } from './carriers';
import { createGeocoder, type Geocoder } from '../geo/geocoder';
import { createPickupDirectory, type PickupDirectory } from '../pickup/directory';
import { createRandom } from '../random';
import type { WebhookDispatcher } from '../webhooks/dispatcher';
import { addGuideExample } from './guide-example';
import { seedAccounts, seedEnvironment, type EnvironmentAccounts } from './seed';
import { applyStatus } from './statuses';
import { environmentNames, type EnvironmentName, type EnvironmentState, type Order } from './types';
import { webhookPayload } from './views';

export interface WorldOptions {
  seed: string;
  orders: number;
  pickupPoints: number;
  trackingBase: string;
  defaultPrintSize: string;
  now: () => number;
  dispatcher: WebhookDispatcher;
}

export interface TodaysOrder {
  orderRef: string;
  orderId: string;
  barcode: string;
  bundleId: string;
  status: OrderStatus;
  companyName: string;
  locationId: string;
  deliveryName: string;
  deliveryAddress: string;
  pudoId: string | undefined;
  /** False when an external carrier supplies the label: only format=pdf works then. */
  zplAvailable: boolean;
}

export class World {
  readonly geocoder: Geocoder;
  readonly directory: PickupDirectory;
  /** The seed's "now": both environments are dated from it, whenever each is made. */
  private seededAt: number;
  private accounts: Record<EnvironmentName, EnvironmentAccounts>;
  /**
   * An environment's orders are made when it is first used: a station works in one of them, and
   * the sandbox starts with every station. Its accounts are made at once (the description lists them).
   */
  private environments: Partial<Record<EnvironmentName, EnvironmentState>> = {};

  constructor(private readonly options: WorldOptions) {
    this.geocoder = createGeocoder();
    this.directory = createPickupDirectory({ size: options.pickupPoints, random: createRandom(`${options.seed}/pickup-points`), geocoder: this.geocoder });
    this.seededAt = options.now();
    this.accounts = this.seedAccounts();
  }

  private seedAccounts(): Record<EnvironmentName, EnvironmentAccounts> {
    const options = { seed: this.options.seed, now: this.seededAt, defaultPrintSize: this.options.defaultPrintSize };
    return { test: seedAccounts('test', options), live: seedAccounts('live', options) };
  }

  private seed(name: EnvironmentName): EnvironmentState {
    const seedOptions = {
      seed: this.options.seed,
      orders: this.options.orders,
      now: this.seededAt,
      trackingBase: this.options.trackingBase,
      defaultPrintSize: this.options.defaultPrintSize,
    };
    const env = seedEnvironment(name, seedOptions, { geocoder: this.geocoder, directory: this.directory }, this.accounts[name]);
    addGuideExample(env, { now: this.seededAt, trackingBase: this.options.trackingBase });
    return env;
  }

  /** Tracking URLs are this plus the barcode. */
  get trackingBase(): string {
    return this.options.trackingBase;
  }

  env(name: EnvironmentName): EnvironmentState {
    return (this.environments[name] ??= this.seed(name));
  }

  /** The companies, locations and keys of an environment, without making its orders. */
  accountsOf(name: EnvironmentName): EnvironmentAccounts {
    return this.environments[name] ?? this.accounts[name];
  }

  /** Back to the seed (dated relative to today). Webhook registrations survive when asked to. */
  reset(keepWebhooks = false): void {
    const previous = this.environments;
    this.seededAt = this.options.now();
    this.accounts = this.seedAccounts();
    this.environments = {};
    if (keepWebhooks) {
      for (const name of environmentNames) {
        const webhooks = previous[name]?.webhooks;
        if (webhooks?.length) this.env(name).webhooks = webhooks;
      }
    }
  }

  /** Moves the order and POSTs the new status to every URL registered for its company and that status. */
  moveOrder(env: EnvironmentState, order: Order, status: OrderStatus): OrderStatus {
    const previous = applyStatus(order, status, this.options.now());
    this.announce(env, order, previous);
    return previous;
  }

  /** A created order entered draft: its webhook carries previousStatus null. */
  announceCreated(env: EnvironmentState, order: Order): void {
    this.announce(env, order, null);
  }

  private announce(env: EnvironmentState, order: Order, previous: OrderStatus | null): void {
    const status = order.status;
    const targets = new Map<string, { registrationId: string; url: string }>();
    for (const registration of env.webhooks) {
      if (registration.companyId !== order.companyId) continue;
      if (registration.statuses && !registration.statuses.includes(status)) continue;
      if (!targets.has(registration.url)) targets.set(registration.url, { registrationId: registration.id, url: registration.url });
    }
    if (targets.size > 0) this.options.dispatcher.emit(env.name, [...targets.values()], webhookPayload(order, previous));
  }

  /** The seed's orders (the day's work a new station can import), in bundle order. */
  todaysOrders(name: EnvironmentName): TodaysOrder[] {
    const env = this.env(name);
    const list: TodaysOrder[] = [];
    for (const bundle of env.bundles.values()) {
      for (const orderId of bundle.orderIds) {
        const order = env.orders.get(orderId);
        if (!order?.seeded) continue;
        list.push({
          orderRef: order.orderRef,
          orderId: order.orderId,
          barcode: order.barcode,
          bundleId: bundle.bundleId,
          status: order.status,
          companyName: env.companies.get(order.companyId)?.name ?? '',
          locationId: String(order.locationId),
          deliveryName: order.deliveryName,
          deliveryAddress: order.addressLine,
          pudoId: order.pudoId,
          zplAvailable: !externalLabelCarriers.includes(order.carrier),
        });
      }
    }
    return list;
  }
}
