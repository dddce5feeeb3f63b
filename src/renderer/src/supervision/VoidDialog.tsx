import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialogShell } from '../components/ConfirmDialog';

export interface VoidRequest {
  reason: string;
  operator: string;
  confirm?: string;
  bundle: boolean;
}

/** Asks who cancels and why (both kept), and in live the word LIVE: the service stops a real delivery. */
export function VoidDialog({
  orderRef,
  bundleId,
  operator,
  live,
  onVoid,
  onCancel,
}: {
  orderRef: string;
  bundleId: string | null;
  operator: string;
  live: boolean;
  onVoid(request: VoidRequest): void;
  onCancel(): void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [reason, setReason] = useState('');
  const [who, setWho] = useState(operator);
  const [confirm, setConfirm] = useState('');
  const [bundle, setBundle] = useState(false);
  const ready = reason.trim() !== '' && who.trim() !== '' && (!live || confirm === 'LIVE');
  return (
    <ConfirmDialogShell title={t('supervision.void.title', { orderRef })} danger onCancel={onCancel}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (ready) onVoid({ reason: reason.trim(), operator: who.trim(), bundle, ...(live ? { confirm } : {}) });
        }}
      >
        <p>{t('supervision.void.explain')}</p>
        <div className="field">
          <label htmlFor={`${id}-reason`}>{t('supervision.void.reason')}</label>
          <input id={`${id}-reason`} type="text" value={reason} onChange={(event) => setReason(event.target.value)} autoFocus data-testid="void-reason" />
        </div>
        <div className="field">
          <label htmlFor={`${id}-operator`}>{t('supervision.void.operator')}</label>
          <input id={`${id}-operator`} type="text" value={who} onChange={(event) => setWho(event.target.value)} data-testid="void-operator" />
        </div>
        {bundleId && (
          <label className="checkbox">
            <input type="checkbox" checked={bundle} onChange={(event) => setBundle(event.target.checked)} data-testid="void-bundle" />{' '}
            {t('supervision.void.wholeBundle', { bundleId })}
          </label>
        )}
        {live && (
          <div className="field">
            <label htmlFor={`${id}-confirm`}>{t('supervision.void.confirmLive')}</label>
            <input id={`${id}-confirm`} type="text" value={confirm} onChange={(event) => setConfirm(event.target.value)} data-testid="void-confirm" />
          </div>
        )}
        <div className="button-row">
          <button type="button" className="button" onClick={onCancel}>
            {t('supervision.void.keep')}
          </button>
          <button type="submit" className="button button-danger" disabled={!ready} data-testid="void-submit">
            {t('supervision.void.submit')}
          </button>
        </div>
      </form>
    </ConfirmDialogShell>
  );
}
