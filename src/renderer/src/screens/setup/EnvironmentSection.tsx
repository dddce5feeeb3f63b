import { useCallback, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { EnvironmentSchema, type Environment } from '../../../../shared/contract/app';
import type { KeyedEnvironment, SettingsChange } from '../../../../shared/contract/settings';
import { CallError } from '../../components/CallError';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Icon } from '../../components/Icon';
import { useAction } from '../../components/use-action';
import { useAppState, useStores } from '../../state/stores-context';

const environments = EnvironmentSchema.options;

/** Sandbox, test or live. Live dispatches real couriers, so switching to it asks first. */
export function EnvironmentSection() {
  const { t } = useTranslation();
  const id = useId();
  const stores = useStores();
  const settings = useAppState((state) => state.settings);
  const [asking, setAsking] = useState(false);
  const save = useCallback((change: SettingsChange) => stores.app.getState().saveSettings(change), [stores]);
  const [run, state] = useAction(save);
  if (!settings) return null;

  const choose = (environment: Environment) => {
    if (environment === settings.environment) return;
    if (environment === 'live') setAsking(true);
    else void run({ environment });
  };

  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('setup.environment')}</h2>
      <fieldset className="choice-group" disabled={state.busy}>
        <legend className="visually-hidden">{t('setup.environment')}</legend>
        {environments.map((environment) => (
          <label key={environment} className={`choice choice-${environment}`}>
            <input type="radio" name={`${id}-environment`} value={environment} checked={settings.environment === environment} onChange={() => choose(environment)} data-testid={`environment-${environment}`} />
            <span>
              <strong>{t(`environment.${environment}`)}</strong>
              <small>{t(`setup.environmentHint.${environment}`)}</small>
            </span>
          </label>
        ))}
      </fieldset>
      <CallError error={state.error} />
      {asking && (
        <ConfirmDialog
          title={t('setup.liveConfirmTitle')}
          confirmLabel={t('setup.liveConfirm')}
          cancelLabel={t('setup.cancel')}
          danger
          onConfirm={() => {
            setAsking(false);
            void run({ environment: 'live' });
          }}
          onCancel={() => setAsking(false)}
        >
          <p>{t('setup.liveConfirmBody')}</p>
        </ConfirmDialog>
      )}
      <BaseUrls />
    </section>
  );
}

/** Where the test and live Delivery APIs are; the sandbox is built in. */
function BaseUrls() {
  const { t } = useTranslation();
  const id = useId();
  const stores = useStores();
  const urls = useAppState((state) => state.settings?.apiBaseUrls);
  const [drafts, setDrafts] = useState<Partial<Record<KeyedEnvironment, string>>>({});
  const save = useCallback((change: SettingsChange) => stores.app.getState().saveSettings(change), [stores]);
  const [run, state] = useAction(save, () => setDrafts({}));
  if (!urls) return null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const change: NonNullable<SettingsChange['apiBaseUrls']> = {};
    for (const environment of ['test', 'live'] as const) {
      const draft = drafts[environment];
      if (draft !== undefined) change[environment] = draft.trim() === '' ? null : draft.trim();
    }
    void run({ apiBaseUrls: change });
  };
  return (
    <form onSubmit={submit} className="subsection">
      <h3>{t('setup.baseUrls')}</h3>
      {(['test', 'live'] as const).map((environment) => (
        <div key={environment} className="field">
          <label htmlFor={`${id}-${environment}`}>{t('setup.baseUrlFor', { environment: t(`environment.${environment}`) })}</label>
          <input
            id={`${id}-${environment}`}
            type="url"
            inputMode="url"
            placeholder="https://"
            value={drafts[environment] ?? urls[environment] ?? ''}
            onChange={(event) => setDrafts((current) => ({ ...current, [environment]: event.target.value }))}
            data-testid={`setting-base-url-${environment}`}
          />
        </div>
      ))}
      <button type="submit" className="button" disabled={state.busy || Object.keys(drafts).length === 0}>
        {t('setup.save')}
      </button>
      {state.done && (
        <p className="ok-text small" role="status">
          <Icon name="check" size={20} /> {t('setup.saved')}
        </p>
      )}
      <CallError error={state.error} />
    </form>
  );
}
