import { StationError } from '../../shared/errors';
import { fileProblem } from '../spreadsheets/spreadsheet-file';
import type { HandlersOf } from '../contract/dispatcher';
import type { PickedFiles } from '../orders/picked-files';
import type { StationSettings } from '../settings/station-settings';
import type { AddressLookups } from '../shipping/address-lookups';
import type { CreationLedger, LedgerEntry } from '../shipping/creation-ledger';
import type { ShipService } from '../shipping/ship-service';
import type { EnvironmentSession } from '../environment-session';
import type { ToShipOrders } from '../shipping/to-ship-orders';
import type { shippingCalls } from '../../shared/contract/shipping';

export interface ShippingHandlerDeps {
  settings: StationSettings;
  ship: ShipService;
  ledger: CreationLedger;
  toShip: ToShipOrders;
  lookups: AddressLookups;
  /** Single-use handles for files the desktop app's dialog or the CLI picked. */
  pickedFiles: PickedFiles;
  /** Makes the current environment usable (starts the embedded sandbox and its printer when it is the sandbox). */
}


const entryData = ({ environment: _environment, ...entry }: LedgerEntry) => entry;

export function shippingHandlers(deps: ShippingHandlerDeps): HandlersOf<typeof shippingCalls> {
  const ready = async (session: EnvironmentSession) => {
    await session.ready();
    return session.environment;
  };
  return {
    'shipping.checkAddress': async ({ locationId, request }, { session }) => deps.lookups.checkAddress(await ready(session), locationId, request),
    'shipping.checkPostalCode': async ({ locationId, request }, { session }) => deps.lookups.checkPostalCode(await ready(session), locationId, request),
    'shipping.coverage': async ({ locationId, refresh }, { session }) => deps.lookups.coverage(await ready(session), locationId, { refresh }),
    'shipping.pickupPoints': async (query, { session }) => deps.lookups.pickupPoints(await ready(session), query),
    'shipping.newShipment': async (input) => {
      const environment = deps.settings.environment();
      if ((await deps.ledger.parcels(environment, input.orderRef)).some((entry) => entry.state !== 'rejected')) {
        throw new StationError('INVALID_INPUT', `${input.orderRef} is already being shipped; give the new shipment its own reference.`);
      }
      const shipment = {
        orderRef: input.orderRef,
        locationId: input.locationId,
        recipient: { name: input.recipientName, email: null, phone: null },
        address: input.address,
        parcels: input.parcels,
        pudoId: input.pudoId ?? null,
        weight: input.weight ?? null,
        dimensions: null,
        signature: false,
        notAtNeighbour: false,
        deliveryNote: null,
        deliveryDate: null,
        name: null,
      };
      await deps.toShip.save(environment, shipment, 'new-shipment form');
      return shipment;
    },
    'shipping.toShip': ({ orderRef }) => deps.toShip.get(deps.settings.environment(), orderRef),
    'shipping.import': async ({ source }) => {
      const environment = deps.settings.environment();
      if (source.kind === 'picked') {
        const path = deps.pickedFiles.take(source.handle);
        if (path === null) throw fileProblem('choice-expired', '', 'That file choice is no longer valid (each choice imports once, within ten minutes). Choose the file again.');
        return deps.toShip.importFile(environment, path);
      }
      if (source.kind === 'bytes') return deps.toShip.importBytes(environment, source.fileName, Buffer.from(source.base64, 'base64'));
      // The schema already refuses a path: whoever can call could otherwise read any file the station can.
      throw new StationError('FORBIDDEN', 'The station does not read a file the screen names by its path.');
    },
    'shipping.ship': async (input, { session }) => {
      await session.ready();
      return deps.ship.ship(input);
    },
    'shipping.ledger': async ({ orderRef }) => (await deps.ledger.parcels(deps.settings.environment(), orderRef)).map(entryData),
    'shipping.unknown': async () => (await deps.ledger.unknown(deps.settings.environment())).map(entryData),
    'shipping.decide': async ({ orderRef, parcel, exists, orderId, operator, reason }) =>
      entryData(
        await deps.ledger.decide(deps.settings.environment(), orderRef, parcel, exists ? { exists: true, orderId: orderId! } : { exists: false }, { operator, reason }),
      ),
  };
}
