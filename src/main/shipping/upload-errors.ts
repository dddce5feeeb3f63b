/**
 * The upload's refusals as the screen's vocabulary wants them: a stable code with facts (the
 * subject that picks the words, the file, the upload's state, the missing columns), and an English
 * message for the log and the CLI only. The screen never shows the message.
 */
import type { UploadState } from '../../shared/contract/upload';
import { StationError } from '../../shared/errors';

/** The file's header lacks required columns: every missing name is a detail, and one fact lists them. */
export function columnsMissing(missing: readonly string[]): StationError {
  return new StationError('UPLOAD_COLUMNS_MISSING', `The file lacks the column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}; column names are exact.`, [...missing], {
    facts: { subject: 'listed', columns: missing.join(', '), count: missing.length },
  });
}

/** The call is refused because of the upload's state (CONFLICT), not because of what was typed. */
export function uploadStateConflict(action: 'start' | 'pause' | 'cancel', uploadId: string, state: UploadState, message: string): StationError {
  return new StationError('CONFLICT', message, [state], { facts: { subject: `upload-${state}`, id: uploadId, state, action } });
}
