import { submitOrShip } from '../ship/submit-or-ship';
import type { StationStores } from '../state/stores';
import { isOperatorBadge, operatorFromBadge, signIn } from './operator-badge';

/**
 * Whatever reached the scan screen — a scan caught anywhere, the manual entry, a sample pressed:
 * an operator badge signs its packer in (it is never looked up as an order); everything else is a
 * print (or ship) scan. Resolves to true when it was a badge.
 */
export async function handleBenchScan(stores: StationStores, text: string): Promise<boolean> {
  const name = isOperatorBadge(text) ? operatorFromBadge(text) : '';
  if (name !== '') {
    await signIn(stores, name);
    return true;
  }
  await submitOrShip(stores, text);
  return false;
}
