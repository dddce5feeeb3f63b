/** Carriers of the sandbox's network (fictional) and what differs between them. */

/** Home delivery carrier per country. */
export function homeCarrier(countryCode: string): string {
  if (countryCode === 'BE') return 'Belgo Parcel';
  if (countryCode === 'DE') return 'PaketDirekt';
  return 'NordPost';
}

/**
 * Carriers that supply their own labels: their orders have PDF labels only (spec: ZPL is
 * "unavailable when the label is supplied by an external carrier").
 */
export const externalLabelCarriers: readonly string[] = ['EuroLocker'];
