import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { LabelDocumentData } from '../../../shared/contract/printing';
import type { StationErrorData } from '../../../shared/errors';
import { CallError } from '../components/CallError';
import { ConfirmDialogShell } from '../components/ConfirmDialog';
import { Icon } from '../components/Icon';
import { useStation } from '../station-context';
import { useStores } from '../state/stores-context';
import { a6, decodeBase64 } from './label-format';
import { LabelPreview } from './LabelPreview';

/** A label shown large in a dialog; Esc or the button closes it. */
export function PreviewDialog({ title, onClose, children }: { title: string; onClose(): void; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <ConfirmDialogShell title={title} onCancel={onClose} wide>
      <div data-testid="preview-dialog">{children}</div>
      <button type="button" className="button" onClick={onClose} autoFocus data-testid="preview-close">
        {t('preview.close')}
      </button>
    </ConfirmDialogShell>
  );
}

/** A journal entry's label as it printed, fetched with `printing.labelDocument`. */
export function EntryPreviewDialog({ entryId, orderRef, onClose }: { entryId: number; orderRef: string; onClose(): void }) {
  const { t } = useTranslation();
  const station = useStation();
  const { preview } = useStores();
  const [document, setDocument] = useState<LabelDocumentData | null>(null);
  const [error, setError] = useState<StationErrorData | null>(null);

  useEffect(() => {
    let current = true;
    setDocument(null);
    setError(null);
    void station['printing.labelDocument']({ entryId }).then((result) => {
      if (!current) return;
      if (result.ok) setDocument(result.value);
      else setError(result.error);
    });
    return () => {
      current = false;
    };
  }, [station, entryId]);

  const bytes = useMemo(() => (document ? decodeBase64(document.base64) : null), [document]);
  const size = useMemo(() => (document ? { widthMm: document.widthMm, heightMm: document.heightMm, dpmm: document.dpmm } : a6), [document]);

  return (
    <PreviewDialog title={t('preview.labelOf', { orderRef })} onClose={onClose}>
      {error && <CallError error={error} testId="preview-call-error" />}
      {!error && !document && (
        <p className="preview-status" role="status" data-testid="preview-loading">
          <Icon name="hourglass" size={28} /> {t('preview.loading')}
        </p>
      )}
      {document && !bytes && (
        <p role="alert" className="error-text" data-testid="preview-error">
          <Icon name="stop" size={28} /> {t('preview.failed')}
        </p>
      )}
      {bytes && <LabelPreview name={orderRef} bytes={bytes} size={size} service={preview} />}
    </PreviewDialog>
  );
}
