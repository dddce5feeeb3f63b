import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../components/Icon';
import type { LabelSize } from './preview-page';
import type { PreviewResult, PreviewService } from './preview-service';

/** Renders a label document (ZPL or PDF) to images; the renderers load on first use. */
export function LabelPreview({ name, bytes, size, service }: { name: string; bytes: Uint8Array; size: LabelSize; service: PreviewService }) {
  const { t } = useTranslation();
  const [result, setResult] = useState<PreviewResult | null>(null);

  useEffect(() => {
    let current = true;
    void service.preview(bytes, size).then((rendered) => {
      if (current) setResult(rendered);
    });
    return () => {
      current = false;
    };
  }, [bytes, size, service]);

  if (!result) {
    return (
      <p className="preview-status" role="status" data-testid="preview-rendering">
        <Icon name="hourglass" size={28} /> {t('preview.rendering')}
      </p>
    );
  }
  if (!result.ok) {
    const titles = {
      'unknown-format': t('preview.unknownFormat'),
      'too-big': t('preview.tooBig'),
      failed: t('preview.failed'),
      refused: t('preview.refused'),
      damaged: t('preview.damaged'),
    } as const;
    return (
      <div role="alert" className="error-text" data-testid="preview-error" data-problem={result.problem}>
        <Icon name="stop" size={28} /> {titles[result.problem]}
        {result.message && <p className="small">{result.message}</p>}
        {result.details && result.details.length > 0 && (
          <ul className="small" data-testid="preview-refused-commands">
            {result.details.map((detail) => (
              <li key={detail}>{detail}</li>
            ))}
          </ul>
        )}
      </div>
    );
  }
  return (
    <div className="preview" data-testid="label-preview" data-format={result.format}>
      {result.pages.map((page, index) => (
        <figure key={page.src.slice(-32) + String(index)} className="preview-page">
          <img src={page.src} width={page.width} height={page.height} alt={t('preview.alt', { name, page: index + 1 })} data-testid="preview-image" />
          <figcaption>
            {page.widthMm !== undefined && page.heightMm !== undefined
              ? t('preview.labelPage', { page: index + 1, pages: result.pageCount, width: formatMm(page.widthMm), height: formatMm(page.heightMm) })
              : t('preview.page', { page: index + 1, pages: result.pageCount })}
          </figcaption>
        </figure>
      ))}
    </div>
  );
}

/** Millimetres as a person reads them off a ruler: 101.5, not 101.49999. */
function formatMm(mm: number): string {
  return String(Math.round(mm * 10) / 10);
}
