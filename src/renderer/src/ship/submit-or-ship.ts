import { normalizeScan } from '../../../shared/scan';
import { isCommandText } from '../scan/commands';
import type { StationStores } from '../state/stores';

/**
 * A scan on the scan screen: a parcels command answers the open ship panel; the slip of an order
 * to ship opens the ship panel; anything else is a print scan as before.
 */
export async function submitOrShip(stores: Pick<StationStores, 'scan' | 'ship'>, text: string): Promise<void> {
  const ship = stores.ship.getState();
  if (isCommandText(text)) {
    if (ship.command(text)) return;
    if (ship.panel.state !== 'closed' && /^STATION:CANCEL$/i.test(text.trim())) {
      ship.close();
      return;
    }
    await stores.scan.getState().submitScan(text);
    return;
  }
  const normalized = normalizeScan(text);
  if (ship.panel.state === 'working') return;
  if (normalized.ok && (await ship.openIfToShip(normalized.value))) return;
  ship.close();
  await stores.scan.getState().submitScan(text);
}
