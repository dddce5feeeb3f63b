/**
 * Ship from the bench: an order to ship → the routing check → one order per parcel (the first
 * creates the bundle, the rest join it) → each label printed at once, "parcel n of m" in the
 * journal. Every creation goes through the creation ledger, so a second Enter, a second scan, a
 * restart or a second process never creates an order that may exist: parcels already created are
 * only printed (through the journal's duplicate guard), parcels of unknown outcome stop the call
 * until a webhook or a lead settles them.
 */
import type { AddressCheckResponse } from '../../shared/api/schemas';
import type { Environment } from '../../shared/contract/app';
import {
  ShipInputSchema,
  type ShipAddress,
  type ShipInput,
  type ShipOutcome,
  type Shipment,
} from '../../shared/contract/shipping';
import { StationError } from '../../shared/errors';
import type { DeliveryClient } from '../api';
import type { Logger } from '../logging/logger';
import type { OrderIndex } from '../orders/order-index';
import { emptyRunOptions } from '../printing/journal/journal-rows';
import type { PrintHistory } from '../printing/journal/print-history';
import { FirstPrintTaken } from '../printing/journal/run-records';
import type { PrinterRecord, PrinterRegistry } from '../printing/printers';
import type { PrintService } from '../printing/runs/print-service';
import type { StationSettings } from '../settings/station-settings';
import { serviceRefFor, type CreationLedger, type LedgerEntry } from './creation-ledger';
import type { CreatedWeights } from './created-weights';
import type { ToShipOrders } from './to-ship-orders';
import { errorText } from '../../shared/error-text';

export interface ShipServiceDeps {
  settings: StationSettings;
  ledger: CreationLedger;
  toShip: ToShipOrders;
  orders: OrderIndex;
  /** The weight each order was created with, for the handover list. */
  weights: CreatedWeights;
  clientFor(environment: Environment): Promise<DeliveryClient>;
  /** The printing: its service, its printers and what was printed (the duplicate guard of a ship). */
  printing: { service: PrintService; printers: PrinterRegistry; history: PrintHistory };
  logger: Logger;
  /** Monotonic milliseconds, for the time a ship took. */
  now?: () => number;
}

type ShippedParcel = Extract<ShipOutcome, { outcome: 'shipped' }>['parcels'][number];

/** What a packer reads for the check's reasons (the spec names OUT_OF_AREA; others are shown as sent). */
const reasonWords: Record<string, string> = {
  OUT_OF_AREA: 'the address is outside every delivery area of this location',
};
const capabilityWords: Record<string, string> = {
  signature: 'delivery with a signature',
  notAtNeighbour: 'no delivery to a neighbour',
  pickupPoint: 'delivery to a pickup point',
};

export class ShipService {
  private readonly now: () => number;
  /** One ship per order at a time in this process; other processes are kept out by the ledger's claim. */
  private readonly busy = new Set<string>();

  constructor(private readonly deps: ShipServiceDeps) {
    this.now = deps.now ?? (() => performance.now());
  }

  async ship(raw: ShipInput): Promise<ShipOutcome> {
    const input = ShipInputSchema.parse(raw);
    const environment = this.deps.settings.environment();
    const key = `${environment}\u0000${input.orderRef}`;
    if (this.busy.has(key)) {
      throw new StationError('INVALID_INPUT', `Order ${input.orderRef} is being shipped right now; wait for its labels.`);
    }
    this.busy.add(key);
    try {
      return await this.shipOnce(environment, input);
    } finally {
      this.busy.delete(key);
    }
  }

  private async shipOnce(environment: Environment, input: ReturnType<typeof ShipInputSchema.parse>): Promise<ShipOutcome> {
    const startedAt = this.now();
    const { ledger } = this.deps;
    const stored = await this.deps.toShip.get(environment, input.orderRef);
    // The weight weighed at the bench wins over the one the order came with.
    const shipment = stored && input.weight !== undefined ? { ...stored, weight: input.weight } : stored;
    if (!shipment) {
      throw new StationError('ORDER_NOT_FOUND', `${input.orderRef} is not an order to ship here: import the shop's export first, or use the new-shipment form.`);
    }
    const existing = await ledger.parcels(environment, shipment.orderRef);
    const pending = existing.filter((entry) => entry.state === 'unknown' || entry.state === 'posting');
    if (pending.length > 0) throw unknownOutcome(shipment.orderRef, pending);

    const live = existing.filter((entry) => entry.state === 'created' || entry.state === 'intended');
    const recordedCount = live.length > 0 ? live[0]!.parcelCount : null;
    const parcelCount = recordedCount ?? input.parcels ?? shipment.parcels ?? 1;
    if (recordedCount !== null && input.parcels !== undefined && input.parcels !== recordedCount) {
      throw new StationError(
        'INVALID_INPUT',
        `Order ${shipment.orderRef} is already being shipped as ${recordedCount} parcel${recordedCount === 1 ? '' : 's'}; it cannot change to ${input.parcels} now.`,
      );
    }
    const pudoId = input.pudoId ?? shipment.pudoId ?? undefined;
    const created = new Map(existing.filter((entry) => entry.state === 'created').map((entry) => [entry.parcel, entry]));
    const toCreate = range(parcelCount).filter((parcel) => !created.has(parcel));
    // Each label is printed as soon as its order exists, while the other parcels are being created.
    const printing = new Map<number, Promise<ShippedParcel>>();
    // The printer is chosen (and, on a shared store, leased) once, before any parcel: from here to
    // each label's launch nothing waits, so no parcel's journal write lands inside another
    // parcel's store transaction (the journal still writes through the bench's handle).
    const printer = await this.parcelPrinter(environment, input.printerId);
    const print = (entry: LedgerEntry, createdNow: boolean) =>
      printing.set(entry.parcel, this.printParcel(environment, shipment, entry, parcelCount, createdNow, printer));

    if (toCreate.length > 0) {
      if (environment === 'live' && input.confirmLive !== toCreate.length) {
        return { outcome: 'confirm-live', orderRef: shipment.orderRef, toCreate: toCreate.length };
      }
      const client = await this.deps.clientFor(environment);
      const check = await client.checkAddress(shipment.locationId, {
        deliveryAddress: shipment.address,
        ...(shipment.dimensions ? { dimensions: shipment.dimensions } : {}),
        ...(shipment.weight !== null ? { weight: shipment.weight } : {}),
        ...(shipment.signature ? { signature: true } : {}),
        ...(shipment.notAtNeighbour ? { notAtNeighbour: true } : {}),
        ...(pudoId ? { pickupPoint: true } : {}),
      });
      if (!check.deliverable) throw notDeliverable(shipment, check, pudoId);
      const differences = addressDifferences(shipment.address, check.resolvedAddress);
      if (differences.length > 0 && !input.acceptCorrectedAddress) {
        return { outcome: 'confirm-address', orderRef: shipment.orderRef, differences, resolved: resolvedAsAddress(check.resolvedAddress) };
      }
      const address = differences.length > 0 ? resolvedAsAddress(check.resolvedAddress) : shipment.address;
      for (const entry of created.values()) print(entry, false);
      const create = (parcel: number) => this.createParcel(environment, client, shipment, address, pudoId, parcel, parcelCount, created.get(1)?.bundleId ?? null);
      try {
        // The first parcel makes the bundle, so it is created on its own; the others join it all
        // at once (each its own claim in the ledger), and each label is printed as soon as its
        // order exists, in parcel order.
        let rest = toCreate;
        if (toCreate[0] === 1) {
          const first = await create(1);
          created.set(1, first.entry);
          print(first.entry, true);
          rest = toCreate.slice(1);
        }
        const creations = rest.map((parcel) => create(parcel));
        // A refusal answers the ship once every parcel under way has settled: none is left posting unseen.
        for (const creation of creations) creation.catch(() => undefined);
        let refusal: { error: unknown } | null = null;
        for (const [index, creation] of creations.entries()) {
          try {
            const { entry, createdNow } = await creation;
            created.set(rest[index]!, entry);
            print(entry, createdNow);
          } catch (error) {
            refusal ??= { error };
          }
        }
        if (refusal) throw refusal.error;
      } catch (error) {
        // The parcels that were created still get their labels before the refusal is told.
        await Promise.allSettled(printing.values());
        throw error;
      }
    } else {
      for (const entry of created.values()) print(entry, false);
    }

    const parcels: ShippedParcel[] = [];
    for (const parcel of range(parcelCount)) parcels.push(await printing.get(parcel)!);
    return { outcome: 'shipped', orderRef: shipment.orderRef, parcels, elapsedMs: Math.round((this.now() - startedAt) * 10) / 10 };
  }

  private async createParcel(
    environment: Environment,
    client: DeliveryClient,
    shipment: Shipment,
    address: ShipAddress,
    pudoId: string | undefined,
    parcel: number,
    parcelCount: number,
    bundleId: string | null,
  ): Promise<{ entry: LedgerEntry; createdNow: boolean }> {
    const { ledger } = this.deps;
    if (!(await ledger.claim(environment, shipment.orderRef, parcel, parcelCount))) {
      // Another process or bench took it first: never sent twice. Created by now: it is that
      // order (printed, not created); still posting or unknown: the packer is told so.
      const taken = (await ledger.entry(environment, shipment.orderRef, parcel))!;
      if (taken.state === 'created') return { entry: taken, createdNow: false };
      throw unknownOutcome(shipment.orderRef, [taken]);
    }
    if (parcel > 1 && bundleId === null) {
      await ledger.markRejected(environment, shipment.orderRef, parcel, 'the first parcel, which creates the bundle, is not created');
      throw new StationError('INTERNAL', `Parcel ${parcel} of ${shipment.orderRef} cannot join a bundle: the first parcel is not created.`);
    }
    const serviceRef = serviceRefFor(shipment.orderRef, parcel);
    let order: Awaited<ReturnType<DeliveryClient['createOrder']>>;
    try {
      order = await client.createOrder({
        locationId: shipment.locationId,
        orderRef: serviceRef,
        ...(bundleId !== null && parcel > 1 ? { orderBundleId: bundleId } : {}),
        ...(shipment.name ? { name: shipment.name } : {}),
        deliveryName: shipment.recipient.name ?? '',
        ...(shipment.recipient.email ? { deliveryEmail: shipment.recipient.email } : {}),
        ...(shipment.recipient.phone ? { deliveryPhone: shipment.recipient.phone } : {}),
        ...(pudoId ? { pudoId } : {}),
        deliveryAddress: address,
        ...(shipment.dimensions ? { dimensions: shipment.dimensions } : {}),
        ...(shipment.weight !== null ? { weight: shipment.weight } : {}),
        ...(shipment.signature ? { signature: true } : {}),
        ...(shipment.notAtNeighbour ? { notAtNeighbour: true } : {}),
        ...(shipment.deliveryDate ? { deliveryDate: shipment.deliveryDate } : {}),
      });
    } catch (error) {
      const ambiguous = !(error instanceof StationError) || error.code === 'OUTCOME_UNKNOWN';
      const reason = errorText(error);
      if (ambiguous) {
        await ledger.markUnknown(environment, shipment.orderRef, parcel, reason);
        this.deps.logger.error('order creation outcome unknown', { environment, orderRef: shipment.orderRef, parcel });
        throw unknownOutcome(shipment.orderRef, [(await ledger.entry(environment, shipment.orderRef, parcel))!]);
      }
      await ledger.markRejected(environment, shipment.orderRef, parcel, reason);
      throw explainRefusal(error as StationError, shipment, pudoId, parcel, parcelCount);
    }
    // The order exists from here on: a failure to record it must never count as a refusal (that
    // would let it be created again). Left 'posting', the next start of this bench makes it unknown.
    const facts = { orderId: order.orderId, barcode: order.barcode, bundleId: order.orderBundle.bundleId };
    // The ledger first, committed on its own: it is what keeps the order from being created twice,
    // so a failure to index the order must not take it back.
    await ledger.markCreated(environment, shipment.orderRef, parcel, facts);
    await this.deps.orders.upsert(environment, { ...facts, orderRef: serviceRef, recipient: shipment.recipient.name, status: order.status }, 'created');
    await this.deps.weights.record(environment, order.orderId, shipment.weight).catch((error: unknown) =>
      this.deps.logger.warn('the weight an order was created with is not kept', { environment, orderId: order.orderId, error: errorText(error) }),
    );
    this.deps.logger.info('order created for a parcel', { environment, orderRef: shipment.orderRef, parcel, parcelCount, orderId: order.orderId });
    return { entry: (await ledger.entry(environment, shipment.orderRef, parcel))!, createdNow: true };
  }

  /** The printer for a ship's labels, leased for this bench; the failure is each parcel's print problem. */
  private async parcelPrinter(environment: Environment, printerId: string | undefined): Promise<PrinterRecord | Error> {
    const { service, printers } = this.deps.printing;
    try {
      const printer = await printers.choose(environment, 'single', printerId);
      await service.claimPrinter(printer);
      return printer;
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
  }

  private async printParcel(
    environment: Environment,
    shipment: Shipment,
    entry: LedgerEntry,
    parcelCount: number,
    createdNow: boolean,
    chosen: PrinterRecord | Error,
  ): Promise<ShippedParcel> {
    const orderId = entry.orderId!;
    const base = { parcel: entry.parcel, parcelCount, serviceRef: entry.serviceRef, orderId, barcode: entry.barcode, bundleId: entry.bundleId, createdNow };
    const { service, history } = this.deps.printing;
    // The journal's duplicate guard: a label printed before is not printed again by a ship.
    const previous = await history.previousPrint(environment, orderId);
    if (previous) return { ...base, printed: 'duplicate', journalEntryId: previous.id, printProblem: null };
    try {
      if (chosen instanceof Error) throw chosen;
      const printer = chosen;
      const run = await service.launch({
        environment,
        kind: 'single',
        printer,
        operator: this.deps.settings.operator(),
        options: { ...emptyRunOptions(), scan: shipment.orderRef },
        labels: [{ orderId, bundleId: entry.bundleId, bundlePosition: entry.parcel, bundleCount: parcelCount, format: printer.format, reprintOf: null, reason: null }],
      });
      const outcome = await run.whenFirstLabelSettles();
      if (outcome.kind === 'error') return { ...base, printed: 'failed', journalEntryId: null, printProblem: outcome.error.message };
      return { ...base, printed: 'printed', journalEntryId: outcome.entry.id, printProblem: null };
    } catch (error) {
      // Another bench printed it a moment ago (the journal's unique first-print index).
      if (error instanceof FirstPrintTaken) return { ...base, printed: 'duplicate', journalEntryId: error.holder.id, printProblem: null };
      return { ...base, printed: 'failed', journalEntryId: null, printProblem: errorText(error) };
    }
  }
}

function range(count: number): number[] {
  return Array.from({ length: count }, (_, index) => index + 1);
}

const squash = (value: string | undefined) => (value ?? '').replace(/\s+/g, '').toUpperCase();

/** Fields where the service's resolved address differs from what was sent (case and spaces ignored). */
export function addressDifferences(sent: ShipAddress, resolved: AddressCheckResponse['resolvedAddress']) {
  const fields = ['street', 'houseNumber', 'suffix', 'postalCode', 'city', 'countryCode'] as const;
  return fields
    .filter((field) => !(field === 'city' && sent.city === '') && squash(sent[field]) !== squash(resolved[field]))
    .map((field) => ({ field, sent: sent[field], resolved: resolved[field] }));
}

function resolvedAsAddress(resolved: AddressCheckResponse['resolvedAddress']): ShipAddress {
  return {
    street: resolved.street,
    houseNumber: resolved.houseNumber,
    suffix: resolved.suffix,
    postalCode: resolved.postalCode,
    city: resolved.city,
    countryCode: resolved.countryCode,
  };
}

function unknownOutcome(orderRef: string, entries: LedgerEntry[]): StationError {
  const which = entries.map((entry) => `parcel ${entry.parcel}`).join(', ');
  return new StationError(
    'OUTCOME_UNKNOWN',
    `It is not known whether ${which} of order ${orderRef} was created at the service, so nothing was sent again. ` +
      'It settles by itself when the service reports the order; otherwise a lead checks the service and decides.',
    entries.map((entry) => `parcel ${entry.parcel}: ${entry.reason ?? entry.state}`),
  );
}

function notDeliverable(shipment: Shipment, check: AddressCheckResponse, pudoId: string | undefined): StationError {
  const reason = check.reason ? (reasonWords[check.reason] ?? `the service says ${check.reason}`) : 'the service gave no reason';
  const missing = Object.entries(check.missingCapabilities ?? {})
    .filter(([, lacking]) => lacking === true)
    .map(([name]) => capabilityWords[name] ?? name);
  const details = [`Reason: ${reason}.`];
  if (missing.length > 0) details.push(`No carrier offers ${missing.join(' or ')} here.`);
  if (pudoId && missing.some((word) => word === capabilityWords.pickupPoint)) {
    details.push(`Pickup point ${pudoId} cannot be used for this address; a lead may choose another point, or home delivery if the shop allows.`);
  }
  details.push('Next step: ship it with another carrier, or put it on the exception shelf. Nothing was created.');
  return new StationError('NOT_DELIVERABLE', `Order ${shipment.orderRef} cannot be delivered to this address: ${reason}. Nothing was created.`, details);
}

/** A refusal from the service, in words a packer understands; the order was not created. */
function explainRefusal(error: StationError, shipment: Shipment, pudoId: string | undefined, parcel: number, parcelCount: number): StationError {
  const which = parcelCount > 1 ? `Parcel ${parcel} of ${parcelCount} of order ${shipment.orderRef}` : `Order ${shipment.orderRef}`;
  if (error.code === 'PICKUP_POINT_REJECTED') {
    return new StationError(
      'PICKUP_POINT_REJECTED',
      `${which} was not created: pickup point ${pudoId ?? ''} does not take orders for this address. It is never sent to the door instead.`,
      ['A lead may choose another pickup point, or home delivery if the shop allows it.', ...(error.details ?? [])],
      { cause: error, facts: { subject: 'point', pudoId: pudoId ?? null, orderRef: shipment.orderRef, parcel, parcels: parcelCount } },
    );
  }
  if (error.code === 'VALIDATION') {
    const fields = (error.details ?? []).map(fieldInWords);
    return new StationError('VALIDATION', `${which} was not created: the service found ${fields.length === 1 ? 'a field' : 'fields'} it cannot accept.`, fields.length > 0 ? fields : error.details);
  }
  return error;
}

const fieldNames: [RegExp, string][] = [
  [/deliveryAddress\.postalCode/i, 'Postal code'],
  [/deliveryAddress\.street/i, 'Street'],
  [/deliveryAddress\.houseNumber/i, 'House number'],
  [/deliveryAddress\.countryCode/i, 'Country'],
  [/deliveryAddress\.city/i, 'City'],
  [/deliveryAddress/i, 'Address'],
  [/deliveryName/i, 'Recipient name'],
  [/deliveryEmail/i, 'Recipient e-mail'],
  [/deliveryPhone/i, 'Recipient phone'],
  [/dimensions/i, 'Parcel size'],
  [/weight/i, 'Weight'],
  [/pudoId/i, 'Pickup point'],
  [/locationId/i, 'Pickup location'],
];

function fieldInWords(message: string): string {
  const found = fieldNames.find(([pattern]) => pattern.test(message));
  return found ? `${found[1]}: ${message}` : message;
}

