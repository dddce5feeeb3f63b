/**
 * What a run's kind means for how it is printed, written and settled after a stop, named once
 * here so the journal, the queue's runs and recovery ask the run what it is, not which kind.
 */
import type { RunKind, RunRow } from './journal-types';

interface KindTraits {
  /**
   * One label a person at the bench waits for (a packer's scan, a printer's test label): it goes
   * before the labels of shift runs, its outcome is answered as soon as it is known, and a stop
   * closes its run instead of leaving it to be resumed (a parcel scanned long ago is not printed out
   * of the blue).
   */
  personWaits: boolean;
  /**
   * Its rows and its label's "sending began" are written without waiting for the disk, since they
   * lie on a scan's path to the printer: a power cut may take them.
   */
  writtenAheadOfDisk: boolean;
}

const traits = {
  single: { personWaits: true, writtenAheadOfDisk: true },
  test: { personWaits: true, writtenAheadOfDisk: false },
  bundles: { personWaits: false, writtenAheadOfDisk: false },
  retry: { personWaits: false, writtenAheadOfDisk: false },
} as const satisfies Record<RunKind, KindTraits>;

/** The kinds of run whose one label a person at the bench waits for. */
export type WaitedKind = { [K in RunKind]: (typeof traits)[K]['personWaits'] extends true ? K : never }[RunKind];

/** A person at the bench waits for the run's one label (see KindTraits.personWaits). */
export function personWaits(run: Pick<RunRow, 'kind'>): boolean {
  return traits[run.kind].personWaits;
}

/** The run's rows and "sending began" may not have reached the disk (see KindTraits.writtenAheadOfDisk). */
export function writtenAheadOfDisk(run: Pick<RunRow, 'kind'>): boolean {
  return traits[run.kind].writtenAheadOfDisk;
}
