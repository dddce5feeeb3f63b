import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../components/Icon';
import { scanGapBounds } from '../../scan/scan-detector';
import { soundKinds } from '../../sound/tones';
import { languages, type Language } from '../../state/preferences';
import { usePreferences, useStores } from '../../state/stores-context';

/** Language, volume and scanner timing: kept by this screen, on this computer. */
export function ScreenPreferences() {
  const { t } = useTranslation();
  const id = useId();
  const stores = useStores();
  const language = usePreferences((state) => state.language);
  const volume = usePreferences((state) => state.volume);
  const scanGapMs = usePreferences((state) => state.scanGapMs);
  const preferences = stores.preferences.getState();

  return (
    <section className="card" aria-labelledby={`${id}-screen`}>
      <h2 id={`${id}-screen`}>{t('setup.screen')}</h2>
      <div className="field">
        <label htmlFor={`${id}-language`}>{t('setup.language')}</label>
        <select id={`${id}-language`} value={language} onChange={(event) => preferences.setLanguage(event.target.value as Language)} data-testid="setting-language">
          {languages.map((code) => (
            <option key={code} value={code} lang={code}>
              {t(`languages.${code}`)}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-volume`}>
          {t('setup.volume')} <output htmlFor={`${id}-volume`}>{t('setup.volumeValue', { volume })}</output>
        </label>
        <input id={`${id}-volume`} type="range" min={0} max={100} step={5} value={volume} onChange={(event) => preferences.setVolume(Number(event.target.value))} data-testid="setting-volume" />
      </div>
      <div className="field">
        <span className="field-label">{t('setup.testSounds')}</span>
        <div className="button-row">
          {soundKinds.map((kind) => (
            <button key={kind} type="button" className="button" onClick={() => stores.sounds.play(kind, volume)} data-testid={`sound-${kind}`}>
              <Icon name="sound" size={24} />
              {t(`sounds.${kind}`)}
            </button>
          ))}
        </div>
      </div>
      <ScanGapField id={`${id}-gap`} value={scanGapMs} onCommit={(gap) => preferences.setScanGapMs(gap)} />
      <p className="small muted">{t('setup.savedHere')}</p>
    </section>
  );
}

/** A number typed freely and taken on Enter or when the field is left, so half-typed values don't jump. */
function ScanGapField({ id, value, onCommit }: { id: string; value: number; onCommit: (gap: number) => void }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(String(value));
  useEffect(() => setDraft(String(value)), [value]);
  const commit = () => {
    const gap = Number(draft);
    if (draft.trim() === '' || !Number.isFinite(gap)) {
      setDraft(String(value));
      return;
    }
    const kept = Math.min(scanGapBounds.max, Math.max(scanGapBounds.min, Math.round(gap)));
    onCommit(kept);
    setDraft(String(kept));
  };
  return (
    <div className="field">
      <label htmlFor={id}>{t('setup.scanGap')}</label>
      <div className="input-with-unit">
        <input
          id={id}
          type="number"
          inputMode="numeric"
          min={scanGapBounds.min}
          max={scanGapBounds.max}
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          onBlur={commit}
          onKeyDown={(event) => {
            if (event.key === 'Enter') commit();
          }}
          aria-describedby={`${id}-hint`}
          data-testid="setting-scan-gap"
        />
        <span>{t('setup.scanGapUnit')}</span>
      </div>
      <p id={`${id}-hint`} className="small">
        {t('setup.scanGapHint')}
      </p>
    </div>
  );
}
