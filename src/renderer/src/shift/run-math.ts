/**
 * The arithmetic of a shift-start run for the screen: which bundle ids were typed or scanned,
 * how many bundles are done, and how long the rest will take. Pure, tested without a screen.
 */

/** Bundle ids from typed or pasted text: split on spaces, commas, semicolons and lines, in order, once each. */
export function parseBundleIds(text: string): string[] {
  const seen = new Set<string>();
  const ids: string[] = [];
  for (const part of text.split(/[\s,;]+/)) {
    const id = part.trim();
    if (id === '' || id.length > 128 || seen.has(id)) continue;
    seen.add(id);
    ids.push(id);
  }
  return ids;
}

/** Adds ids to a selection, keeping its order and skipping ids already in it. */
export function addToSelection(selection: readonly string[], ids: readonly string[]): string[] {
  const next = [...selection];
  for (const id of ids) if (!next.includes(id)) next.push(id);
  return next;
}

/** Adds the id when it is not chosen yet, removes it when it is. */
export function toggleInSelection(selection: readonly string[], id: string): string[] {
  return selection.includes(id) ? selection.filter((kept) => kept !== id) : [...selection, id];
}

export interface ListedBundle {
  bundleId: string;
  parcels: number;
  printed: number;
  /** Cancelled or finished at the service, no label printed: nothing to print for them. */
  leftOut?: number;
}

/** Parcels of a listed bundle a run would still print. */
export const toPrintOf = (bundle: ListedBundle): number => Math.max(0, bundle.parcels - bundle.printed - (bundle.leftOut ?? 0));

/**
 * What a choice of bundles comes to: the labels still to print in the bundles the station lists,
 * and the chosen ids it does not list (scanned or typed; the service says how many labels they have).
 */
export function selectionTotals(selection: readonly string[], listed: readonly ListedBundle[]): { labels: number; unlisted: string[] } {
  const byId = new Map(listed.map((bundle) => [bundle.bundleId, bundle]));
  let labels = 0;
  const unlisted: string[] = [];
  for (const id of selection) {
    const bundle = byId.get(id);
    if (bundle) labels += toPrintOf(bundle);
    else unlisted.push(id);
  }
  return { labels, unlisted };
}

/**
 * Bundles whose labels have all left the station, given how many labels have left. Labels go
 * bundle by bundle in plan order, or all reversed (last bundle first).
 */
export function bundlesDone(plans: readonly { labels: number }[], done: number, reverse: boolean): number {
  const order = reverse ? [...plans].reverse() : plans;
  let remaining = done;
  let count = 0;
  for (const plan of order) {
    if (remaining < plan.labels) break;
    remaining -= plan.labels;
    count += 1;
  }
  return count;
}

export interface ProgressSample {
  /** ms since the epoch. */
  at: number;
  /** Labels that left the station (sent, printed or uncertain). */
  done: number;
  /** Labels the printer said it printed. */
  printed: number;
}

/** How far back the rate is measured: recent enough to follow a pause, long enough to be steady. */
export const rateWindowMs = 30_000;

/** How long a printer must have said nothing of what it printed before the labels sent time the run instead. */
export const silentPrinterMs = 10_000;

/**
 * Seconds left at the printer's measured pace, or null while there is no pace to go by (just
 * started, or nothing moved in the window: paused). The pace is the printer's own — labels it says
 * it printed — since labels leave the station far faster than a Zebra prints them: they wait in
 * its buffer (a 92-label run on a printer of one label a second read "about 38 s left" at 4 of 92
 * timed by the labels sent, and took 90 s). A printer that never says it printed (an OS queue) is
 * timed by the labels sent, once they have been going for long enough to be a pace.
 */
export function secondsLeft(samples: readonly ProgressSample[], total: number): number | null {
  const last = samples.at(-1);
  if (!last) return null;
  if (last.printed >= total) return 0;
  const windowStart = last.at - rateWindowMs;
  const first = samples.find((sample) => sample.at >= windowStart) ?? samples[0];
  if (!first || last.at <= first.at) return null;
  const seconds = (last.at - first.at) / 1000;
  if (last.printed > first.printed) return Math.ceil((total - last.printed) / ((last.printed - first.printed) / seconds));
  const silent = last.printed === 0 && last.at - samples[0]!.at >= silentPrinterMs;
  if (!silent || last.done <= first.done) return null;
  if (last.done >= total) return 0;
  return Math.ceil((total - last.done) / ((last.done - first.done) / seconds));
}

/** Keeps the samples the rate needs and drops older ones. */
export function addSample(samples: readonly ProgressSample[], sample: ProgressSample): ProgressSample[] {
  return [...samples.filter((kept) => kept.at >= sample.at - rateWindowMs && kept.at <= sample.at), sample];
}

/** "1 min 05 s" style parts for the screen: minutes and seconds. */
export function minutesAndSeconds(seconds: number): { minutes: number; seconds: number } {
  const whole = Math.max(0, Math.round(seconds));
  return { minutes: Math.floor(whole / 60), seconds: whole % 60 };
}
