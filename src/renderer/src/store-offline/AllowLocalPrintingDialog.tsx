import { useCallback, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { AllowLocalPrinting, StoreHealthData } from '../../../shared/contract/store';
import { CallError } from '../components/CallError';
import { ConfirmDialogShell } from '../components/ConfirmDialog';
import { useAction } from '../components/use-action';
import { useStation } from '../station-context';

/** The shortest reason the station takes (AllowLocalPrintingSchema). */
export const shortestReason = 3;

/**
 * A lead lets this bench print scans while the shared store is offline: why (kept with every
 * label printed meanwhile) and who (the operator signed in, unless the lead types their own name).
 * A modal, so the scan screen behind it does not move.
 */
export function AllowLocalPrintingDialog({ operator, onAllowed, onCancel }: { operator: string; onAllowed(health: StoreHealthData): void; onCancel(): void }) {
  const { t } = useTranslation();
  const id = useId();
  const station = useStation();
  const [reason, setReason] = useState('');
  const [by, setBy] = useState(operator);
  const allowCall = useCallback((input: AllowLocalPrinting) => station['store.allowLocalPrinting'](input), [station]);
  const [allow, allowState] = useAction(allowCall, onAllowed);
  const reasonReady = reason.trim().length >= shortestReason;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!reasonReady) return;
    // An empty name leaves it to the station, which names the operator signed in (or asks for one).
    void allow({ reason: reason.trim(), ...(by.trim() === '' ? {} : { operator: by.trim() }) });
  };

  return (
    <ConfirmDialogShell title={t('store.allowTitle')} onCancel={onCancel}>
      <p className="small">{t('store.allowHint')}</p>
      <form onSubmit={submit} autoComplete="off" data-testid="allow-local-form">
        <div className="field">
          <label htmlFor={`${id}-reason`}>{t('store.allowReason')}</label>
          <input
            id={`${id}-reason`}
            type="text"
            value={reason}
            required
            minLength={shortestReason}
            maxLength={500}
            autoFocus
            onChange={(event) => setReason(event.target.value)}
            aria-describedby={`${id}-reason-hint`}
            data-testid="allow-local-reason"
          />
          <p id={`${id}-reason-hint`} className="small muted">
            {t('store.allowReasonHint')}
          </p>
        </div>
        <div className="field">
          <label htmlFor={`${id}-by`}>{t('store.allowBy')}</label>
          <input id={`${id}-by`} type="text" value={by} maxLength={100} spellCheck={false} onChange={(event) => setBy(event.target.value)} data-testid="allow-local-by" />
        </div>
        <CallError error={allowState.error} testId="allow-local-error" />
        <div className="button-row">
          <button type="button" className="button" onClick={onCancel} data-testid="allow-local-cancel">
            {t('setup.cancel')}
          </button>
          <button type="submit" className="button button-primary" disabled={!reasonReady || allowState.busy} data-testid="allow-local-submit">
            {t('store.allow')}
          </button>
        </div>
      </form>
    </ConfirmDialogShell>
  );
}
