import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { MAX_RAW_SCAN_LENGTH } from '../../../shared/scan';
import { scanEntryAttribute } from '../scan/key-target';

/** The fallback when a barcode won't scan: type it and press Enter. Keys typed here are never taken for a scan. */
export function ManualEntry({ onSubmit }: { onSubmit: (text: string) => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (text.trim() === '') return;
    onSubmit(text);
    setText('');
  };
  return (
    <form className="manual-entry" onSubmit={submit} role="search">
      <label htmlFor="manual-scan">{t('scan.manualLabel')}</label>
      <div className="manual-entry-row">
        <input
          id="manual-scan"
          {...{ [scanEntryAttribute]: '' }}
          type="text"
          value={text}
          maxLength={MAX_RAW_SCAN_LENGTH}
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          placeholder={t('scan.manualPlaceholder')}
          onChange={(event) => setText(event.target.value)}
          data-testid="manual-entry"
        />
        <button type="submit" className="button button-primary">
          {t('scan.manualSubmit')}
        </button>
      </div>
    </form>
  );
}
