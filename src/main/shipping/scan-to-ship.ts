/**
 * Whether a scan at the bench is the slip of an order to ship from it: an order the station keeps
 * to ship (imported, or typed into the new-shipment form) whose parcels are not all created yet.
 * Asked by the scan call itself, in the main process, so the scan's label request never waits for
 * a round trip through the screen first. An order whose every parcel is created prints through the
 * duplicate guard like any other scan.
 */
import type { Environment } from '../../shared/contract/app';
import type { ToShipAnswerData } from '../../shared/contract/printing';
import { normalizeScan } from '../../shared/scan';
import type { CreationLedger } from './creation-ledger';
import type { ToShipOrders } from './to-ship-orders';

export interface ScanToShipDeps {
  toShip: Pick<ToShipOrders, 'get'>;
  ledger: Pick<CreationLedger, 'parcels'>;
}

export type ScanToShip = (environment: Environment, scan: string) => Promise<ToShipAnswerData | null>;

export function scanToShip(deps: ScanToShipDeps): ScanToShip {
  return async (environment, scan) => {
    const normalized = normalizeScan(scan);
    if (!normalized.ok) return null;
    const shipment = await deps.toShip.get(environment, normalized.value);
    if (!shipment) return null;
    const parcels = await deps.ledger.parcels(environment, normalized.value);
    if (parcels.length > 0 && parcels.every((entry) => entry.state === 'created')) return null;
    // A shipment begun before (a refusal, a restart) offers the count it was begun with.
    const recorded = parcels.find((entry) => entry.state !== 'rejected')?.parcelCount;
    return { outcome: 'to-ship', scan: normalized.value, shipment, parcels: recorded ?? shipment.parcels ?? 1 };
  };
}
