/**
 * A journal entry's reason in the screen's language. The journal keeps reasons as the station
 * wrote them, so the journal and its exports read the same in any language; the screen words
 * the ones it recognises:
 * - a reprint: "Reprint by Sam: damaged" (the reason's code);
 * - a cancelled label: "Cancelled by Sam before it was sent." / "Cancelled before it was sent.";
 * - a failure or an uncertain label: "CODE: English sentence", worded by the error code's title;
 * - a lead's override: "Printed for a cancelled order on the word of Anna: customer called";
 * - the note of commands cut out of a carrier's label: "removed ^JUS: it …" (zpl-prepare.ts).
 * Any other reason (an older entry, a free-text reprint reason) is shown as it is.
 */
import type { TFunction } from 'i18next';
import { errorCodes, type ErrorCode, type ErrorFacts } from '../../../shared/errors';
import { formatDateTime } from '../i18n/format';
import { reprintReasons, type ReprintReason } from '../scan/commands';

const reprintPattern = /^Reprint by (.*): ([a-z-]+)$/;
const cancelledByPattern = /^Cancelled by (.+) before it was sent\.$/;
const cancelledPattern = /^Cancelled before it was sent\.$/;
const codePattern = /^([A-Z_]+): /;
/** zpl-prepare.ts removalNote: "removed ^JUS, ^MNY: it …, which are the bench admin's to set." */
const removedPattern = /^removed ([^:]+): it /;
/** single-print.ts: a lead's override of a refusal. */
const overridePattern = /^Printed for a ([a-z_]*) order on the word of (.+?): (.*)$/;

export function reasonWords(reason: string, t: TFunction): string {
  const reprint = reprintPattern.exec(reason);
  const code = reprint?.[2];
  if (reprint && code && (reprintReasons as readonly string[]).includes(code)) {
    return t('history.reprintBy', { operator: reprint[1], reason: t(`reprint.reasons.${code as ReprintReason}`) });
  }
  const cancelledBy = cancelledByPattern.exec(reason);
  if (cancelledBy) return t('history.cancelledBy', { operator: cancelledBy[1] });
  if (cancelledPattern.test(reason)) return t('history.cancelledUnsent');
  const override = overridePattern.exec(reason);
  if (override) {
    const status = override[1] ? t(`supervision.statuses.${override[1]}`) : '?';
    return t('history.overrideBy', { status, operator: override[2], reason: override[3] });
  }
  const removed = removedPattern.exec(reason);
  if (removed) return t('history.noteRemoved', { commands: removed[1] });
  const failure = codePattern.exec(reason)?.[1];
  if (failure && (errorCodes as readonly string[]).includes(failure)) return t(`errors.${failure}.title`);
  return reason;
}

/** What a run left out, as the run summary lists it. */
export interface SkippedLike {
  orderId: string | null;
  bundleId: string | null;
  code: ErrorCode;
  facts?: ErrorFacts | undefined;
}

/**
 * Why a run left a parcel or bundle out, in the screen's language, from the code and its facts:
 * the order by its ref (never a raw id when the station knows the ref), when it printed before,
 * its status. A skip recorded before facts existed is named by its code's title alone.
 */
export function skippedWords(skipped: SkippedLike, t: TFunction, language: string): { subject: string; why: string } {
  const facts = skipped.facts ?? {};
  const text = (name: string) => (typeof facts[name] === 'string' || typeof facts[name] === 'number' ? String(facts[name]) : null);
  const orderRef = text('orderRef');
  const bundleId = text('bundleId') ?? skipped.bundleId;
  const subject = orderRef ?? (bundleId ? t('shift.skippedBundle', { bundleId }) : (skipped.orderId ?? ''));
  const printedAt = text('printedAt');
  const status = text('status');
  switch (skipped.code) {
    case 'ALREADY_PRINTED':
      if (printedAt) return { subject, why: t('shift.skippedWhy.printedBefore', { time: formatDateTime(printedAt, language) }) };
      break;
    case 'ORDER_TERMINAL':
      if (status) return { subject, why: t('shift.skippedWhy.terminal', { status: t(`supervision.statuses.${status}`) }) };
      break;
    case 'BUNDLE_NOT_FOUND':
      return { subject, why: t('shift.skippedWhy.bundleUnknown') };
    default:
      break;
  }
  return { subject, why: t(`errors.${skipped.code}.title`) };
}
