import { useTranslation } from 'react-i18next';
import { reprintReasons, type ReprintReason } from '../scan/commands';
import { ConfirmDialogShell } from './ConfirmDialog';

/** Asks why a label is printed again; the answer goes into the journal with the reprint. */
export function ReasonDialog({ orderRef, onChoose, onCancel }: { orderRef: string; onChoose(reason: ReprintReason): void; onCancel(): void }) {
  const { t } = useTranslation();
  return (
    <ConfirmDialogShell title={t('reprint.title', { orderRef })} onCancel={onCancel}>
      <p>{t('reprint.hintDialog')}</p>
      <ol className="reason-list">
        {reprintReasons.map((reason, index) => (
          <li key={reason}>
            <button type="button" className="button reason-button" onClick={() => onChoose(reason)} autoFocus={index === 0} data-testid={`dialog-reason-${reason}`}>
              {t(`reprint.reasons.${reason}`)}
            </button>
          </li>
        ))}
      </ol>
      <button type="button" className="button" onClick={onCancel}>
        {t('setup.cancel')}
      </button>
    </ConfirmDialogShell>
  );
}
