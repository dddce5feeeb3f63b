/**
 * The print_label_marks table (migration 5, on the station's store): what the printer said when each label reached it,
 * keyed by journal entry id. The print queue writes it as labels are sent; a run resumed after
 * the station stopped reads it back for the labels that may still be in the printer.
 */
import { z } from 'zod';
import type { StoreEngine } from '../../store';

export interface LabelMark {
  entryId: number;
  sentAtMs: number;
  serial: string | null;
  odometerTarget: number | null;
}

/** What the queue needs of the store (the tests give it a map). */
export interface LabelMarkStore {
  /**
   * `waitForDisk: false` (SQLite): committed without waiting for the disk, for a mark recorded just
   * before its label's "sent", whose commit (which waits) takes it there too.
   */
  record(mark: LabelMark, options?: { waitForDisk?: boolean }): Promise<void>;
  get(entryId: number): Promise<LabelMark | null>;
}

const RowSchema = z.object({
  entry_id: z.number().int(),
  sent_at_ms: z.number().int(),
  serial: z.string().nullable(),
  odometer_target: z.number().int().nullable(),
});

export class StoreLabelMarks implements LabelMarkStore {
  constructor(
    private readonly engine: StoreEngine,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async record(mark: LabelMark, options: { waitForDisk?: boolean } = {}): Promise<void> {
    const sql = `INSERT INTO print_label_marks (entry_id, sent_at_ms, serial, odometer_target, updated_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (entry_id) DO UPDATE SET sent_at_ms = excluded.sent_at_ms, serial = excluded.serial,
         odometer_target = excluded.odometer_target, updated_at = excluded.updated_at`;
    const params = [mark.entryId, Math.round(mark.sentAtMs), mark.serial, mark.odometerTarget, this.clock().toISOString()];
    if (options.waitForDisk === false) await this.engine.executeWithoutDiskWait(sql, params);
    else await this.engine.execute(sql, params);
  }

  async get(entryId: number): Promise<LabelMark | null> {
    const [row] = await this.engine.query('SELECT entry_id, sent_at_ms, serial, odometer_target FROM print_label_marks WHERE entry_id = $1', [entryId]);
    if (row === undefined) return null;
    const parsed = RowSchema.parse(row);
    return { entryId: parsed.entry_id, sentAtMs: parsed.sent_at_ms, serial: parsed.serial, odometerTarget: parsed.odometer_target };
  }
}
