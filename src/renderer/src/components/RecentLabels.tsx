import { memo, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { recentReprintKeys } from '../navigation/shortcuts';
import type { PrintedLabel } from '../scan/scan-outcome';
import { clockFormatter } from '../i18n/format';
import { Icon } from './Icon';

/** The last labels printed at this screen, each reprinted with one key (F6–F9) and previewed (Shift+F6–F9). */
export const RecentLabels = memo(function RecentLabels({
  labels,
  onReprint,
  onPreview,
}: {
  labels: readonly PrintedLabel[];
  onReprint: (index: number) => void;
  onPreview: (index: number) => void;
}) {
  const { t, i18n } = useTranslation();
  // One formatter per language, not one per label per drawing: this list draws on every scan.
  const clock = useMemo(() => clockFormatter(i18n.language), [i18n.language]);
  const reprintWord = t('recent.reprint');
  const previewWord = t('recent.preview');
  return (
    <section className="recent" aria-labelledby="recent-title" data-testid="recent-labels">
      <h2 id="recent-title">{t('recent.title')}</h2>
      {labels.length === 0 ? (
        <p className="muted">{t('recent.empty')}</p>
      ) : (
        <ol className="recent-list">
          {labels.map((label, index) => {
            const key = recentReprintKeys[index];
            return (
              <li key={`${label.printedAt}-${label.orderRef}-${label.entryId ?? index}`} className="recent-item" data-testid={`recent-${index}`}>
                <span className="recent-ref">{label.orderRef}</span>
                <span className="recent-meta">
                  {label.parcel && `${t('ship.parcelOf', { n: label.parcel.n, m: label.parcel.of })} · `}
                  {label.recipient} · {t('recent.at', { time: clock(label.printedAt) })}
                </span>
                <span className="recent-actions">
                  <button type="button" className="button" onClick={() => onReprint(index)} aria-keyshortcuts={key} data-testid={`recent-reprint-${index}`}>
                    <Icon name="redo" size={24} />
                    {reprintWord}
                    {key && <kbd>{key}</kbd>}
                  </button>
                  {label.entryId !== undefined && (
                    <button
                      type="button"
                      className="button"
                      onClick={() => onPreview(index)}
                      aria-keyshortcuts={key ? `Shift+${key}` : undefined}
                      title={key ? t('recent.previewKey', { key: `Shift+${key}` }) : undefined}
                      data-testid={`recent-preview-${index}`}
                    >
                      <Icon name="eye" size={24} />
                      {previewWord}
                    </button>
                  )}
                </span>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
});
