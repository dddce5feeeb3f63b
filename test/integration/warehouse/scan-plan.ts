/**
 * The warehouse test's day, drawn from a seed: which bench scans which order when, where the
 * same order is scanned at two or three benches within a few milliseconds (two packers holding
 * parcels with one label), some orders scanned again seconds later at another bench, and when
 * benches are killed. The same seed gives the same day.
 */

/** Mulberry32: a small seeded generator, good enough to spread scans (not for secrets). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface PlanOrder {
  orderId: string;
  orderRef: string;
  barcode: string;
}

export interface PlannedScan {
  /** Milliseconds from the start of the day. */
  at: number;
  bench: number;
  orderId: string;
  /** What the scanner reads: the order ref, the parcel barcode or the order id. */
  scan: string;
}

export interface PlannedKill {
  at: number;
  bench: number;
  /** Once the bench has a scan under way, how long after that the kill lands (mid-scan). */
  intoScanMs: number;
  /** How long the bench stays down before it is started again. */
  downMs: number;
}

export interface ScanPlan {
  scans: PlannedScan[];
  kills: PlannedKill[];
  /** Orders scanned at two or more benches within milliseconds of each other. */
  overlapping: number;
}

export interface PlanOptions {
  seed: number;
  benches: number;
  scans: number;
  durationMs: number;
  kills: number;
}

export function planDay(orders: readonly PlanOrder[], options: PlanOptions): ScanPlan {
  const random = seededRandom(options.seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const benchesApart = (count: number): number[] => {
    const chosen = new Set<number>();
    while (chosen.size < Math.min(count, options.benches)) chosen.add(Math.floor(random() * options.benches));
    return [...chosen];
  };
  const scanOf = (order: PlanOrder): string => pick([order.orderRef, order.barcode, order.orderId]);

  const scans: PlannedScan[] = [];
  let overlapping = 0;
  let next = 0;
  while (scans.length < options.scans) {
    const order = orders[next++];
    if (!order) throw new Error(`${orders.length} orders are too few for ${options.scans} scans`);
    const roll = random();
    const together = roll < 0.4 ? 1 : roll < 0.8 ? 2 : 3;
    if (together > 1) overlapping += 1;
    const base = random() * options.durationMs;
    const benches = benchesApart(together + 1);
    for (const bench of benches.slice(0, together)) scans.push({ at: base + random() * 5, bench, orderId: order.orderId, scan: scanOf(order) });
    // One order in ten is scanned again a few seconds later at another bench.
    const later = benches[together];
    if (random() < 0.1 && later !== undefined) scans.push({ at: base + 1_000 + random() * 2_000, bench: later, orderId: order.orderId, scan: scanOf(order) });
  }
  scans.length = options.scans;
  scans.sort((a, b) => a.at - b.at);

  // Each kill at a different bench, so every kill ends a running station.
  const kills = benchesApart(options.kills)
    .map((bench) => ({ at: options.durationMs * (0.1 + 0.8 * random()), bench, intoScanMs: random() * 25, downMs: 500 + random() * 1_000 }))
    .sort((a, b) => a.at - b.at);
  return { scans, kills, overlapping };
}
