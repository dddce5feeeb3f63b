/**
 * A reprint's reason is kept in the journal as its code ("Reprint by Sam: damaged", as main
 * writes it) so the journal and its exports read the same in any language; the screen shows it
 * translated. Any other reason (a failure's words from main) is shown as it is.
 */
import type { TFunction } from 'i18next';
import { reprintReasons, type ReprintReason } from '../scan/commands';

const reprintPattern = /^Reprint by (.*): ([a-z-]+)$/;

export function reasonWords(reason: string, t: TFunction): string {
  const match = reprintPattern.exec(reason);
  const code = match?.[2];
  if (!match || !code || !(reprintReasons as readonly string[]).includes(code)) return reason;
  return t('history.reprintBy', { operator: match[1], reason: t(`reprint.reasons.${code as ReprintReason}`) });
}
