import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatClock } from '../i18n/format';
import { a6 } from '../preview/label-format';
import { LabelPreview } from '../preview/LabelPreview';
import { PreviewDialog } from '../preview/PreviewDialog';
import type { VirtualPrinterLabel } from '../state/sandbox-store';
import { useStores } from '../state/stores-context';
import { Icon } from './Icon';

/** The paper tray of the sandbox's virtual Zebra: what it printed, newest first, each as it would look. */
export function VirtualPrinterPanel({ labels }: { labels: readonly VirtualPrinterLabel[] | null }) {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState(false);
  const newest = labels?.[0];
  // Places count from 0 since the virtual printer started: the newest one's place says how many it printed.
  const total = newest ? newest.index + 1 : 0;

  return (
    <section className="virtual-printer" aria-labelledby="virtual-printer-title" data-testid="virtual-printer">
      <h2 id="virtual-printer-title">
        <Icon name="printer" size={28} /> {t('virtualPrinter.title')}
      </h2>
      {labels === null && <p className="small muted">{t('virtualPrinter.asking')}</p>}
      {labels !== null && !newest && <p className="small muted" data-testid="virtual-printer-empty">{t('virtualPrinter.empty')}</p>}
      {newest && (
        <div className="virtual-printer-latest">
          <LabelThumbnail label={newest} />
          <div className="virtual-printer-facts">
            <p data-testid="virtual-printer-count">{t('virtualPrinter.count', { count: total })}</p>
            <p className="small">
              <span className="mono" data-testid="virtual-printer-latest-barcode">
                {newest.barcode ?? '—'}
              </span>{' '}
              · {formatClock(newest.printedAt, i18n.language, true)}
            </p>
            <button type="button" className="button" onClick={() => setOpen(true)} data-testid="virtual-printer-open">
              <Icon name="eye" size={24} />
              {t('virtualPrinter.show')}
            </button>
          </div>
        </div>
      )}
      {open && labels && (
        <PreviewDialog title={t('virtualPrinter.dialogTitle', { count: labels.length })} onClose={() => setOpen(false)}>
          {/* Its own scroll area: a stop of the Tab key, so the arrow keys and Page Down scroll it without a mouse. */}
          <ol className="virtual-printer-tray" tabIndex={0} aria-label={t('virtualPrinter.dialogTitle', { count: labels.length })} data-testid="virtual-printer-labels">
            {labels.map((label) => (
              <li key={label.index} className="virtual-printer-label">
                <LabelThumbnail label={label} />
                <span className="small">
                  <strong>#{label.index + 1}</strong> · {formatClock(label.printedAt, i18n.language, true)}
                  <br />
                  <span className="mono">{label.barcode ?? '—'}</span>
                </span>
              </li>
            ))}
          </ol>
        </PreviewDialog>
      )}
    </section>
  );
}

function LabelThumbnail({ label }: { label: VirtualPrinterLabel }) {
  const { preview } = useStores();
  const bytes = useMemo(() => new TextEncoder().encode(label.zpl), [label.zpl]);
  return (
    <div className="label-thumbnail">
      <LabelPreview name={label.barcode ?? 'label'} bytes={bytes} size={a6} service={preview} />
    </div>
  );
}
