/**
 * The spreadsheet upload in the screen's words: why a row is not created (its problems' codes and
 * facts), why it was skipped (an orderRef created before for another location says where), and
 * the panel's own refusals, made as errors with facts like main's so CallError words them.
 */
import type { TFunction } from 'i18next';
import type { UploadRowProblem, UploadRowView, UploadSkip, UploadStatus } from '../../../shared/contract/upload';
import type { StationErrorData } from '../../../shared/errors';

export function uploadProblemWords(problem: UploadRowProblem, t: TFunction): string {
  return t(`upload.problem.${problem.code}`, {
    column: problem.column ?? '',
    value: problem.value ?? '',
    firstRow: problem.firstRow ?? '',
    errorCode: problem.errorCode ?? '',
    messages: (problem.messages ?? []).join('; '),
  });
}

/** Created before for a location other than the one this row names. */
export const createdElsewhere = (skip: UploadSkip): boolean =>
  skip.code === 'created-before' && !!skip.locationId && !!skip.rowLocationId && skip.locationId !== skip.rowLocationId;

export function uploadSkipWords(skip: UploadSkip, t: TFunction): string {
  if (createdElsewhere(skip)) return t('upload.skip.created-elsewhere', { location: skip.locationId, rowLocation: skip.rowLocationId });
  return t(`upload.skip.${skip.code}`, { firstRow: skip.firstRow ?? '' });
}

/** Why a row of the preview is not created: its skip reason, or every problem. */
export function uploadRowWhy(row: UploadRowView, t: TFunction): string {
  return row.skip ? uploadSkipWords(row.skip, t) : row.problems.map((problem) => uploadProblemWords(problem, t)).join('; ');
}

/** The chosen file is larger than the screen sends: refused before reading it, with its size. */
export function fileTooBig(fileName: string, sizeBytes: number, limitBytes: number): StationErrorData {
  const mb = (bytes: number) => Math.ceil((bytes / 1024 / 1024) * 10) / 10;
  return {
    code: 'IMPORT_FAILED',
    message: `${fileName} is larger than ${mb(limitBytes)} MB (checked on the screen).`,
    facts: { subject: 'too-big', file: fileName, mb: mb(limitBytes), sizeMb: mb(sizeBytes) },
  };
}

/** No location typed: the rows could name none, so nothing is read. */
export const noLocationChosen = (): StationErrorData => ({
  code: 'INVALID_INPUT',
  message: 'No location of the company was given for the upload (checked on the screen).',
  facts: { subject: 'upload-no-location' },
});

/**
 * An upload's result counts. "Failed" says where each failed row failed (errors in the file, at the
 * service, cancelled), so it never reads as a different number from the progress line above it,
 * which counts only the rows sent.
 */
export function uploadCountsWords(status: Pick<UploadStatus, 'successful' | 'failedTotal' | 'counts'>, t: TFunction): string {
  const { counts } = status;
  const base = { created: status.successful, failed: status.failedTotal, skipped: counts.skipped };
  if (status.failedTotal === 0) return t('upload.resultCounts', base);
  const why = [
    counts.invalid > 0 ? t('upload.failedInFile', { count: counts.invalid }) : null,
    counts.failed + counts.unknown > 0 ? t('upload.failedAtService', { count: counts.failed + counts.unknown }) : null,
    counts.cancelled > 0 ? t('upload.failedCancelled', { count: counts.cancelled }) : null,
  ].filter((part): part is string => part !== null);
  return t('upload.resultCountsWhy', { ...base, why: why.join(', ') });
}
