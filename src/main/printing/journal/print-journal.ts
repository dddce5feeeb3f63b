/**
 * The print journal: a row per label and a row per run, in the station's store (the bench's SQLite
 * file, or a warehouse's shared PostgreSQL). Every write is one small commit made before the step
 * it records where a crash in between would otherwise resend a label: "sending began" is committed
 * before the first byte leaves, so after a crash such a label is uncertain, never sent again by itself.
 *
 * It is made of three parts on the same store, each reached as a property: `runRecords` (a run and
 * its state, owner and recovery), `labels` (each label's steps) and `history` (what was printed).
 */
import type { FlushToDisk, StoreEngine } from '../../store';
import { LabelRecords } from './label-records';
import { PrintHistory } from './print-history';
import { RunRecords, type JournalBench } from './run-records';

export class PrintJournal {
  /** A run's records: the run written with its labels, its state, its owner and its recovery after a stop. */
  readonly runRecords: RunRecords;
  /** A label's records: each step of its way to the printer. */
  readonly labels: LabelRecords;
  /** What was printed: the duplicate and first-print guards' questions and the screens' lists. */
  readonly history: PrintHistory;

  constructor(
    engine: StoreEngine,
    clock: () => Date = () => new Date(),
    /**
     * Takes the bench's SQLite file to the disk in the background (store/wal-flush.ts). Without it,
     * or on PostgreSQL (whose commits are durable when they return), a run asked to be written
     * without waiting for the disk waits anyway.
     */
    flushToDisk?: FlushToDisk,
    /** Without it (tests of one bench), rows carry no bench. */
    private readonly bench?: JournalBench,
  ) {
    this.history = new PrintHistory(engine);
    this.runRecords = new RunRecords(engine, this.history, clock, flushToDisk, bench);
    this.labels = new LabelRecords(engine, clock);
  }

  /** The bench writing (null: a journal of one bench that carries no bench id, as in tests). */
  get benchId(): string | null {
    return this.bench?.id ?? null;
  }
}
