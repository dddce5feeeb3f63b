import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialogShell } from '../components/ConfirmDialog';

export interface ParcelDecision {
  exists: boolean;
  orderId?: string;
  operator: string;
  reason: string;
}

/**
 * A lead settles a parcel whose creation has no known outcome: it was created (with the order id the
 * lead found at the service) or it was not. Who and why are required: the ledger keeps both.
 */
export function DecideParcelDialog({
  orderRef,
  parcel,
  parcelCount,
  serviceRef,
  operator,
  onDecide,
  onCancel,
}: {
  orderRef: string;
  parcel: number;
  parcelCount: number;
  serviceRef: string;
  operator: string;
  onDecide(decision: ParcelDecision): void;
  onCancel(): void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [exists, setExists] = useState<boolean | null>(null);
  const [orderId, setOrderId] = useState('');
  const [reason, setReason] = useState('');
  const [who, setWho] = useState(operator);
  // The service's own rule: a reason of at least three characters.
  const ready = exists !== null && (!exists || orderId.trim() !== '') && reason.trim().length >= 3 && who.trim() !== '';
  return (
    <ConfirmDialogShell title={t('ship.decide.title', { orderRef, n: parcel, m: parcelCount })} onCancel={onCancel}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (!ready) return;
          onDecide({ exists, ...(exists ? { orderId: orderId.trim() } : {}), operator: who.trim(), reason: reason.trim() });
        }}
      >
        <p>{t('ship.decide.explain', { serviceRef })}</p>
        <fieldset className="field">
          <legend>{t('ship.decide.question')}</legend>
          <label className="checkbox">
            <input type="radio" name={`${id}-exists`} checked={exists === true} onChange={() => setExists(true)} autoFocus data-testid="decide-created" /> {t('ship.decide.created')}
          </label>
          <label className="checkbox">
            <input type="radio" name={`${id}-exists`} checked={exists === false} onChange={() => setExists(false)} data-testid="decide-not-created" /> {t('ship.decide.notCreated')}
          </label>
        </fieldset>
        {exists === true && (
          <div className="field">
            <label htmlFor={`${id}-order`}>{t('ship.decide.orderId')}</label>
            <input id={`${id}-order`} value={orderId} onChange={(event) => setOrderId(event.target.value)} data-testid="decide-order-id" />
          </div>
        )}
        <div className="field">
          <label htmlFor={`${id}-reason`}>{t('ship.decide.reason')}</label>
          <input id={`${id}-reason`} value={reason} onChange={(event) => setReason(event.target.value)} data-testid="decide-reason" />
        </div>
        <div className="field">
          <label htmlFor={`${id}-operator`}>{t('ship.decide.operator')}</label>
          <input id={`${id}-operator`} value={who} onChange={(event) => setWho(event.target.value)} data-testid="decide-operator" />
        </div>
        <div className="button-row">
          <button type="button" className="button" onClick={onCancel}>
            {t('ship.decide.cancel')}
          </button>
          <button type="submit" className="button button-primary" disabled={!ready} data-testid="decide-submit">
            {t('ship.decide.submit')}
          </button>
        </div>
      </form>
    </ConfirmDialogShell>
  );
}
