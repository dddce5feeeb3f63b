/**
 * The statements both the run part and the label part make inside their own transactions: a run
 * closed in the same commit as its last labels, and recovery settling a stopped run's labels.
 */
import type { StoreSession } from '../../store';

export async function finishRunIn(session: StoreSession, runId: string, state: 'finished' | 'cancelled', now: string): Promise<void> {
  await session.execute(
    `UPDATE print_runs SET state = $1, pause_reason = NULL, updated_at = $2, finished_at = $2 WHERE id = $3 AND state IN ('running', 'paused')`,
    [state, now, runId],
  );
}

export async function markUncertainIn(session: StoreSession, id: number, reason: string, now: string): Promise<void> {
  await session.execute(
    `UPDATE print_journal SET state = 'uncertain', uncertain_at = $1, reason = $2, updated_at = $1 WHERE id = $3 AND state IN ('queued', 'fetched', 'sent')`,
    [now, reason, id],
  );
}

/** Every label of the run not yet sent fails with the reason; returns how many. */
export async function failUnsentIn(session: StoreSession, runId: string, reason: string, now: string): Promise<number> {
  const result = await session.execute(
    `UPDATE print_journal SET state = 'failed', failed_at = $1, reason = $2, updated_at = $1 WHERE run_id = $3 AND state IN ('queued', 'fetched') AND sent_at IS NULL`,
    [now, reason, runId],
  );
  return result.changes;
}
