/**
 * A label's records in the journal: each step of its way to the printer (fetched, sending began,
 * sent, printed, failed, uncertain, decided), each one small commit made before the step it records
 * where a crash in between would otherwise resend the label.
 */
import { z } from 'zod';
import type { SecondCopyData } from '../../../shared/contract/printing';
import type { StoreEngine, StoreSession } from '../../store';
import { entryColumns, firstRecord, parseRecord, toEntry } from './journal-rows';
import { failUnsentIn, finishRunIn, markUncertainIn } from './journal-steps';
import type { JournalRow, LabelFormat } from './journal-types';

const ReasonRecordSchema = z.object({ reason: z.string().nullable() });

export class LabelRecords {
  constructor(
    private readonly engine: StoreEngine,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  private now(): string {
    return this.clock().toISOString();
  }

  async entries(runId: string): Promise<JournalRow[]> {
    return (await this.engine.query(`SELECT ${entryColumns} FROM print_journal WHERE run_id = $1 ORDER BY position, id`, [runId])).map(toEntry);
  }

  async entry(id: number): Promise<JournalRow | null> {
    return this.entryIn(this.engine, id);
  }

  private async entryIn(session: StoreSession, id: number): Promise<JournalRow | null> {
    const record = await firstRecord(session, `SELECT ${entryColumns} FROM print_journal WHERE id = $1`, [id]);
    return record ? toEntry(record) : null;
  }

  async markFetched(id: number, sha256: string, format: LabelFormat): Promise<void> {
    await this.fetchedIn(this.engine, id, sha256, format, this.now());
  }

  private async fetchedIn(session: StoreSession, id: number, sha256: string, format: LabelFormat, now: string): Promise<void> {
    await session.execute(
      `UPDATE print_journal SET state = 'fetched', fetched_at = $1, document_sha256 = $2, format = $3, updated_at = $1 WHERE id = $4 AND state IN ('queued', 'fetched')`,
      [now, sha256, format, id],
    );
  }

  /**
   * Adds a note to the entry's reason (e.g. what the station removed from the label), once: a label
   * fetched again (a resumed run) does not repeat it. Returns the reason now.
   */
  async addNote(id: number, note: string): Promise<string | null> {
    return this.engine.transaction(async (tx) => {
      const record = (await tx.queryForUpdate('SELECT reason FROM print_journal WHERE id = $1', [id]))[0];
      if (!record) return null;
      const { reason } = parseRecord(ReasonRecordSchema, record, 'label reason');
      if (reason !== null && reason.includes(note)) return reason;
      const noted = reason === null || reason === '' ? note : `${reason} ${note}`;
      await tx.execute('UPDATE print_journal SET reason = $1, updated_at = $2 WHERE id = $3', [noted, this.now(), id]);
      return noted;
    });
  }

  /**
   * Committed before the first byte of the label leaves. `waitForDisk: false` (a scan's label, the
   * one commit between the service's answer and the printer; SQLite only): the mark survives the
   * station's process dying, since the operating system holds the write, but not the computer losing
   * power; recovery reads an unsent label of a scan left by an earlier boot as uncertain for that reason.
   */
  async markSending(id: number, options: { waitForDisk?: boolean } = {}): Promise<void> {
    const now = this.now();
    const sql = `UPDATE print_journal SET sent_at = $1, updated_at = $1 WHERE id = $2 AND state IN ('queued', 'fetched')`;
    if (options.waitForDisk === false) await this.engine.executeWithoutDiskWait(sql, [now, id]);
    else await this.engine.execute(sql, [now, id]);
  }

  /** Nothing of the label reached the printer after all (the connection was never made). */
  async clearSending(id: number): Promise<void> {
    await this.engine.execute(`UPDATE print_journal SET sent_at = NULL, updated_at = $1 WHERE id = $2 AND state IN ('queued', 'fetched')`, [this.now(), id]);
  }

  /**
   * The printer confirmed it has read the whole label (or the OS queue took the job). `fetched`:
   * the document, when its fetch is not in the journal yet (a scan's, recorded after its answer),
   * written in the same commit.
   */
  async markSent(id: number, fetched?: { sha256: string; format: LabelFormat }): Promise<void> {
    const now = this.now();
    const sent = `UPDATE print_journal SET state = 'sent', sent_at = coalesce(sent_at, $1), updated_at = $1 WHERE id = $2 AND state IN ('queued', 'fetched')`;
    if (!fetched) {
      await this.engine.execute(sent, [now, id]);
      return;
    }
    await this.engine.transaction(async (tx) => {
      await this.fetchedIn(tx, id, fetched.sha256, fetched.format, now);
      await tx.execute(sent, [now, id]);
    });
  }

  /** `finish`: these were the run's last labels; it is closed in the same commit. */
  async markPrinted(ids: readonly number[], finish?: { runId: string; state: 'finished' | 'cancelled' }): Promise<void> {
    if (ids.length === 0 && !finish) return;
    const now = this.now();
    await this.engine.transaction(async (tx) => {
      for (const id of ids) {
        await tx.execute(`UPDATE print_journal SET state = 'printed', printed_at = $1, updated_at = $1 WHERE id = $2 AND state = 'sent'`, [now, id]);
      }
      if (finish) await finishRunIn(tx, finish.runId, finish.state, now);
    });
  }

  /**
   * The printer may have put the label out twice (see SecondCopySchema). A certain verdict is never
   * weakened to a possible one by a later look.
   */
  async markSecondCopy(id: number, secondCopy: SecondCopyData): Promise<void> {
    await this.engine.execute(
      `UPDATE print_journal SET second_copy = $1, second_copy_fault = $2, updated_at = $3 WHERE id = $4 AND (second_copy IS NULL OR second_copy <> 'certain')`,
      [secondCopy.certainty, secondCopy.fault, this.now(), id],
    );
  }

  async markFailed(id: number, reason: string): Promise<void> {
    await this.engine.execute(
      `UPDATE print_journal SET state = 'failed', failed_at = $1, reason = $2, updated_at = $1 WHERE id = $3 AND state IN ('queued', 'fetched')`,
      [this.now(), reason, id],
    );
  }

  async markUncertain(id: number, reason: string): Promise<void> {
    await markUncertainIn(this.engine, id, reason, this.now());
  }

  /** Every label of the run not yet sent fails with the reason; returns how many. */
  async failUnsent(runId: string, reason: string): Promise<number> {
    return failUnsentIn(this.engine, runId, reason, this.now());
  }

  /** Settles an uncertain label; null when it is not (or no longer) an undecided uncertain label. */
  async decide(id: number, decision: 'printed' | 'print-again', operator: string): Promise<JournalRow | null> {
    const now = this.now();
    return this.engine.transaction(async (tx) => {
      const record = (await tx.queryForUpdate(`SELECT ${entryColumns} FROM print_journal WHERE id = $1`, [id]))[0];
      const before = record ? toEntry(record) : null;
      if (!before || before.state !== 'uncertain' || before.decidedAt !== null) return null;
      if (decision === 'printed') {
        await tx.execute(
          `UPDATE print_journal SET state = 'printed', printed_at = $1, decided_by = $2, decided_at = $1, updated_at = $1 WHERE id = $3 AND state = 'uncertain' AND decided_at IS NULL`,
          [now, operator, id],
        );
      } else {
        const reason = `${before.reason ?? 'Uncertain'} ${operator} said it did not print and chose to print it again.`;
        await tx.execute(
          `UPDATE print_journal SET state = 'failed', failed_at = $1, reason = $2, decided_by = $3, decided_at = $1, updated_at = $1 WHERE id = $4 AND state = 'uncertain' AND decided_at IS NULL`,
          [now, reason, operator, id],
        );
      }
      return this.entryIn(tx, id);
    });
  }
}
