/**
 * The ship panel's state: an order to ship opened by scanning its slip, the parcel count the
 * packer sets (number keys or a `STATION:PARCELS:n` command barcode), and the outcome of Enter:
 * shipped (one label per parcel), a corrected address to confirm, the live count to confirm, or a
 * refusal with its reason. The station's creation ledger makes a second Enter harmless; the panel
 * also ignores Enter while a ship is running.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { StationApi } from '../../../shared/contract';
import type { ShipOutcome, Shipment } from '../../../shared/contract/shipping';
import type { StationErrorData } from '../../../shared/errors';
import type { PrintedLabel } from '../scan/scan-outcome';

export type ShipPanel =
  | { state: 'closed' }
  | { state: 'ready'; shipment: Shipment; parcels: number; acceptCorrectedAddress: boolean; confirmLive: number | null }
  | { state: 'working'; shipment: Shipment; parcels: number }
  | { state: 'confirm'; shipment: Shipment; parcels: number; accepted: boolean; outcome: Exclude<ShipOutcome, { outcome: 'shipped' }> }
  | { state: 'shipped'; shipment: Shipment; parcels: number; outcome: Extract<ShipOutcome, { outcome: 'shipped' }> }
  | { state: 'refused'; shipment: Shipment; parcels: number; error: StationErrorData };

/**
 * The parcel's weight the panel ships with: from the bench's scale (a stable reading), typed by the
 * packer, or the one the order came with. Null: none (the order is created without a weight).
 */
export type ParcelWeight = { grams: number; source: 'scale' | 'typed' | 'order' } | null;

export interface ShipState {
  panel: ShipPanel;
  weight: ParcelWeight;
  /** A stable weight from the scale: fills the weight unless the packer typed one for this order. */
  weighed(grams: number): void;
  /** The packer typed a weight (null: cleared it). */
  typeWeight(grams: number | null): void;
  /** Opens the panel on a scanned slip the station answered is an order to ship (printing.scan), offering `parcels`. */
  openScanned(shipment: Shipment, parcels: number): void;
  /** Opens the panel on a shipment typed into the new-shipment form. */
  open(shipment: Shipment): void;
  setParcels(parcels: number): void;
  /** `STATION:PARCELS:n`; false when the text is not a parcels command or no panel is open. */
  command(text: string): boolean;
  /** Enter: ship, or confirm what the panel asks and ship. */
  enter(): Promise<void>;
  /** After a refusal was dealt with (a lead settled the parcels in doubt): ready to ship again. */
  retry(): void;
  close(): void;
}

export const maxParcels = 50;
const parcelsCommand = /^STATION:PARCELS:(\d{1,2})$/;

export function parseParcelsCommand(text: string): number | null {
  const match = parcelsCommand.exec(text.trim().toUpperCase());
  if (!match) return null;
  const parcels = Number(match[1]);
  return parcels >= 1 && parcels <= maxParcels ? parcels : null;
}

export interface ShipStoreDeps {
  station: StationApi;
  /** The labels a ship printed, one per parcel: the scan screen keeps them among the last labels. */
  onPrinted?(labels: PrintedLabel[]): void;
  now?(): number;
}

/** The labels of a shipped order that came out now (not those printed before), as the last labels list them. */
export function shippedLabels(shipment: Shipment, outcome: Extract<ShipOutcome, { outcome: 'shipped' }>, printedAt: string): PrintedLabel[] {
  return outcome.parcels
    .filter((parcel) => parcel.printed === 'printed')
    .map((parcel) => ({
      // The parcel's own reference, as its label, History and a void name it (SHOP-1001-P2), with "Parcel 2 of 2" beside it.
      orderRef: parcel.serviceRef,
      recipient: shipment.recipient.name ?? '',
      printerName: '',
      printedAt,
      // Reprinted by its own barcode (or order id): the one parcel, not the whole order.
      scan: parcel.barcode ?? parcel.orderId,
      ...(parcel.journalEntryId !== null ? { entryId: parcel.journalEntryId } : {}),
      parcel: { n: parcel.parcel, of: parcel.parcelCount },
    }));
}

export function createShipStore(deps: ShipStoreDeps): StoreApi<ShipState> {
  const now = deps.now ?? Date.now;
  return createStore<ShipState>()((set, get) => {
    const ship = async (shipment: Shipment, parcels: number, acceptCorrectedAddress: boolean, confirmLive: number | null) => {
      set({ panel: { state: 'working', shipment, parcels } });
      const weight = get().weight;
      const result = await deps.station['shipping.ship']({
        orderRef: shipment.orderRef,
        parcels,
        // Sent only when weighed or typed here: the order's own weight is already the station's.
        ...(weight && weight.source !== 'order' ? { weight: weight.grams } : {}),
        ...(acceptCorrectedAddress ? { acceptCorrectedAddress: true } : {}),
        ...(confirmLive !== null ? { confirmLive } : {}),
      });
      if (!result.ok) set({ panel: { state: 'refused', shipment, parcels, error: result.error } });
      else if (result.value.outcome === 'shipped') {
        set({ panel: { state: 'shipped', shipment, parcels, outcome: result.value } });
        const printed = shippedLabels(shipment, result.value, new Date(now()).toISOString());
        if (printed.length > 0) deps.onPrinted?.(printed);
      }
      else set({ panel: { state: 'confirm', shipment, parcels, accepted: acceptCorrectedAddress, outcome: result.value } });
    };

    const orderWeight = (shipment: Shipment): ParcelWeight => (shipment.weight !== null ? { grams: shipment.weight, source: 'order' } : null);

    return {
      panel: { state: 'closed' },
      weight: null,

      weighed(grams) {
        const { panel, weight } = get();
        // Only while the packer may still ship it, and never over what they typed.
        if (panel.state !== 'ready' && panel.state !== 'confirm') return;
        if (weight?.source === 'typed') return;
        set({ weight: { grams, source: 'scale' } });
      },

      typeWeight(grams) {
        set({ weight: grams === null ? null : { grams, source: 'typed' } });
      },

      openScanned(shipment, parcels) {
        set({ panel: { state: 'ready', shipment, parcels, acceptCorrectedAddress: false, confirmLive: null }, weight: orderWeight(shipment) });
      },

      open(shipment) {
        set({ panel: { state: 'ready', shipment, parcels: shipment.parcels ?? 1, acceptCorrectedAddress: false, confirmLive: null }, weight: orderWeight(shipment) });
      },

      setParcels(parcels) {
        const panel = get().panel;
        if (panel.state !== 'ready' || parcels < 1 || parcels > maxParcels) return;
        set({ panel: { ...panel, parcels } });
      },

      command(text) {
        const parcels = parseParcelsCommand(text);
        if (parcels === null || get().panel.state !== 'ready') return false;
        get().setParcels(parcels);
        return true;
      },

      async enter() {
        const panel = get().panel;
        if (panel.state === 'ready') await ship(panel.shipment, panel.parcels, panel.acceptCorrectedAddress, panel.confirmLive);
        else if (panel.state === 'confirm') {
          const outcome = panel.outcome;
          // Shipped to the corrected address: the panel shows that one from now on, not the one sent.
          if (outcome.outcome === 'confirm-address') await ship({ ...panel.shipment, address: outcome.resolved }, panel.parcels, true, null);
          else await ship(panel.shipment, panel.parcels, panel.accepted, outcome.toCreate);
        }
      },

      retry() {
        const panel = get().panel;
        if (panel.state !== 'refused') return;
        set({ panel: { state: 'ready', shipment: panel.shipment, parcels: panel.parcels, acceptCorrectedAddress: false, confirmLive: null } });
      },

      close() {
        // Closing a closed panel changes nothing: no new state, so nothing on screen draws again.
        if (get().panel.state !== 'closed') set({ panel: { state: 'closed' }, weight: null });
      },
    };
  });
}
