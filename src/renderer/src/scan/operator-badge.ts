/**
 * The operator badge: a barcode `STATION:OPERATOR:<name>` on a packer's card signs them in for
 * the shift wherever it is scanned. Case of the prefix does not matter (a Caps-Lock scanner); the
 * name is kept as printed.
 */
import { OperatorSchema } from '../../../shared/contract/settings';
import type { StationStores } from '../state/stores';

const badgePrefix = /^STATION:OPERATOR:/i;

export const isOperatorBadge = (scan: string): boolean => badgePrefix.test(scan.trim());

/** The name on the badge, or '' when the badge carries none a name may be. */
export function operatorFromBadge(scan: string): string {
  const parsed = OperatorSchema.safeParse(scan.trim().replace(badgePrefix, '').trim());
  return parsed.success ? parsed.data : '';
}

/**
 * Signs an operator in for the shift (the setting the journal records), and lets a reprint that
 * waited for a name go ahead. Resolves to whether the station took the name.
 */
export async function signIn(stores: StationStores, name: string): Promise<boolean> {
  const result = await stores.app.getState().saveSettings({ operator: name });
  if (!result.ok) return false;
  await stores.scan.getState().operatorSignedIn();
  return true;
}
