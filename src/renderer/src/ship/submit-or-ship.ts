import { isCommandText } from '../scan/commands';
import type { StationStores } from '../state/stores';

/**
 * A scan on the scan screen: a parcels command answers the open ship panel; anything else goes to
 * the station at once, in one call that decides there whether the slip is an order to ship (the
 * ship panel opens) or a label to print (an open ship panel gives way to the outcome). Nothing is
 * asked or drawn before that call leaves.
 */
export function submitOrShip(stores: Pick<StationStores, 'scan' | 'ship'>, text: string): Promise<void> {
  const ship = stores.ship.getState();
  if (isCommandText(text)) {
    if (ship.command(text)) return Promise.resolve();
    if (ship.panel.state !== 'closed' && /^STATION:CANCEL$/i.test(text.trim())) {
      ship.close();
      return Promise.resolve();
    }
    return stores.scan.getState().submitScan(text);
  }
  // A ship under way takes no scan: its labels are printing.
  if (ship.panel.state === 'working') return Promise.resolve();
  return stores.scan.getState().submitScan(text);
}
