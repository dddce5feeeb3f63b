import { useId, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../components/Icon';
import { useStores } from '../state/stores-context';
import { a6, maxLabelBytes } from './label-format';
import { LabelPreview } from './LabelPreview';

/** Check a label file (ZPL or PDF) on screen before it goes near a printer: layout, orientation, barcode. */
export function LabelFilePreview() {
  const { t } = useTranslation();
  const inputId = useId();
  const { preview } = useStores();
  const [file, setFile] = useState<{ name: string; bytes: Uint8Array } | null>(null);
  const [tooBig, setTooBig] = useState(false);

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    if (!chosen) return;
    if (chosen.size > maxLabelBytes) {
      setFile(null);
      setTooBig(true);
      return;
    }
    setTooBig(false);
    setFile({ name: chosen.name, bytes: new Uint8Array(await chosen.arrayBuffer()) });
  };

  return (
    <section className="card" aria-labelledby={`${inputId}-title`}>
      <h2 id={`${inputId}-title`}>
        <Icon name="eye" size={28} /> {t('preview.title')}
      </h2>
      <p>{t('preview.intro')}</p>
      <label htmlFor={inputId} className="button file-button">
        <Icon name="file" size={28} />
        {t('preview.choose')}
        <input id={inputId} className="visually-hidden" type="file" accept=".zpl,.txt,.prn,.pdf,application/pdf,text/plain" onChange={(event) => void choose(event)} data-testid="label-file" />
      </label>
      {tooBig && (
        <p role="alert" className="error-text">
          <Icon name="stop" size={24} /> {t('preview.tooBig')}
        </p>
      )}
      {file && <LabelPreview key={file.name} name={file.name} bytes={file.bytes} size={a6} service={preview} />}
    </section>
  );
}
