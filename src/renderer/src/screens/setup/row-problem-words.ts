import type { TFunction } from 'i18next';
import type { RowErrorData } from '../../../../shared/contract/imports';

/** A manifest row's problem in the screen's words, from its code and facts; the English message is for the CLI. */
export function rowProblemWords(rowError: RowErrorData, t: TFunction): string {
  const facts = rowError.facts ?? {};
  const field = typeof facts.field === 'string' ? t(`setup.importFields.${facts.field}`, { defaultValue: facts.field }) : '';
  const reason = typeof facts.reason === 'string' ? t(`scan.rejected.${facts.reason}`, { defaultValue: '' }) : '';
  return t(`setup.importProblems.${rowError.problem ?? 'other'}`, { ...facts, field, reason });
}
