/**
 * What the screen says once this bench's local-only labels are in the shared journal: how many
 * were merged and, as a warning of its own, how many were printed twice meanwhile (they are
 * listed in Setup › Store). Worded by the Notices component from `notices.<code>` with `count`.
 */
import type { OfflineMerged } from '../../../shared/contract/store';
import type { Notice } from '../state/app-store';

export function offlineMergedNotices(merged: OfflineMerged): Omit<Notice, 'id'>[] {
  // `message` is only the log's English fallback; the codes below are always worded.
  const notices: Omit<Notice, 'id'>[] = [{ level: 'info', message: '', code: 'offline-merged', facts: { count: merged.labels } }];
  if (merged.duplicates > 0) notices.push({ level: 'warning', message: '', code: 'offline-printed-twice', facts: { count: merged.duplicates } });
  return notices;
}
