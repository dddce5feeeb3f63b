import { useCallback, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { stationNameWords } from '../../i18n/station-name';
import type { Settings, SettingsChange } from '../../../../shared/contract/settings';
import { CallError } from '../../components/CallError';
import { Icon } from '../../components/Icon';
import { useAction } from '../../components/use-action';
import { useAppState, useStores } from '../../state/stores-context';

/** Station name and operator name: both go into the print journal with every label. */
export function StationSection() {
  const { t } = useTranslation();
  const id = useId();
  const settings = useAppState((state) => state.settings);
  const info = useAppState((state) => state.info);
  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('setup.station')}</h2>
      {settings && (
        <>
          <NameField field="stationName" label={t('setup.stationName')} hint={t('setup.stationNameHint')} value={stationNameWords(settings.stationName, t)} testId="setting-station-name" />
          <NameField field="operator" label={t('setup.operator')} hint={t('setup.operatorHint')} value={settings.operator} testId="setting-operator" />
        </>
      )}
      {info && (
        <dl className="facts small">
          <dt>{t('footer.version')}</dt>
          <dd>{info.version}</dd>
        </dl>
      )}
    </section>
  );
}

function NameField({ field, label, hint, value, testId }: { field: 'stationName' | 'operator'; label: string; hint: string; value: string; testId: string }) {
  const { t } = useTranslation();
  const id = useId();
  const stores = useStores();
  const [draft, setDraft] = useState<string | null>(null);
  const save = useCallback((change: SettingsChange) => stores.app.getState().saveSettings(change), [stores]);
  const [run, state] = useAction(save, (_settings: Settings) => setDraft(null));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (draft === null) return;
    void run({ [field]: draft });
  };
  return (
    <form className="field" onSubmit={submit}>
      <label htmlFor={id}>{label}</label>
      <div className="input-row">
        <input id={id} type="text" value={draft ?? value} maxLength={80} autoComplete="off" onChange={(event) => setDraft(event.target.value)} aria-describedby={`${id}-hint`} data-testid={testId} />
        <button type="submit" className="button" disabled={state.busy || draft === null}>
          {t('setup.save')}
        </button>
      </div>
      <p id={`${id}-hint`} className="small muted">
        {hint}
      </p>
      {state.done && (
        <p className="ok-text small" role="status">
          <Icon name="check" size={20} /> {t('setup.saved')}
        </p>
      )}
      <CallError error={state.error} />
    </form>
  );
}
