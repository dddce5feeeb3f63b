import { useCallback, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { EnvironmentSchema, type Environment } from '../../../../shared/contract/app';
import { ApiBaseUrlSchema, sameApiAddress, type KeyedEnvironment, type SettingsChange } from '../../../../shared/contract/settings';
import { CallError } from '../../components/CallError';
import { forSetup } from './setup-error';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Icon } from '../../components/Icon';
import { useAction } from '../../components/use-action';
import { useStation } from '../../station-context';
import { useAppState, useStores } from '../../state/stores-context';

const environments = EnvironmentSchema.options;

/** What an environment lacks before the bench can print in it: its address, its key, or both. */
type MissingSetup = 'key-and-address' | 'address' | 'key';

/**
 * Sandbox, test or live. Live dispatches real couriers, so switching to it asks first. An
 * environment without its address or key cannot print a label: choosing it says so and asks
 * too (staying where the bench prints is the default), and while it is the one in use a warning
 * says what is missing.
 */
export function EnvironmentSection() {
  const { t } = useTranslation();
  const id = useId();
  const stores = useStores();
  const station = useStation();
  const settings = useAppState((state) => state.settings);
  const keySetNow = useAppState((state) => state.info?.keySet ?? false);
  const [asking, setAsking] = useState<{ environment: Exclude<Environment, 'sandbox'>; missing: MissingSetup | null } | null>(null);
  const save = useCallback((change: SettingsChange) => stores.app.getState().saveSettings(change), [stores]);
  const [run, state] = useAction(save);
  if (!settings) return null;

  const missingFor = (environment: Exclude<Environment, 'sandbox'>, keySet: boolean): MissingSetup | null => {
    const address = settings.apiBaseUrls[environment] !== null;
    return !address && !keySet ? 'key-and-address' : !address ? 'address' : !keySet ? 'key' : null;
  };
  const choose = async (environment: Environment) => {
    if (environment === settings.environment) return;
    if (environment === 'sandbox') {
      void run({ environment });
      return;
    }
    const keys = await station['keys.status']({});
    // Without an answer from the keychain no key can be read there either: say it is missing.
    const keySet = keys.ok && keys.value.environments.some((status) => status.environment === environment && status.keySet);
    const missing = missingFor(environment, keySet);
    if (missing !== null || environment === 'live') setAsking({ environment, missing });
    else void run({ environment });
  };
  const current = settings.environment;
  const missingNow = current === 'sandbox' ? null : missingFor(current, keySetNow);

  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('setup.environment')}</h2>
      <fieldset className="choice-group" disabled={state.busy}>
        <legend className="visually-hidden">{t('setup.environment')}</legend>
        {environments.map((environment) => (
          <label key={environment} className={`choice choice-${environment}`}>
            <input type="radio" name={`${id}-environment`} value={environment} checked={settings.environment === environment} onChange={() => void choose(environment)} data-testid={`environment-${environment}`} />
            <span>
              <strong>{t(`environment.${environment}`)}</strong>
              <small>{t(`setup.environmentHint.${environment}`)}</small>
            </span>
          </label>
        ))}
      </fieldset>
      {missingNow !== null && (
        <p className="error-text" role="alert" data-testid="environment-not-set-up">
          <Icon name="stop" size={24} /> {t(`errors.NOT_CONFIGURED.title_${missingNow}`, { environment: t(`environment.${current}`) })} — {t('setup.notSetUpAction')}
        </p>
      )}
      <CallError error={forSetup(state.error)} />
      {asking && (
        <ConfirmDialog
          title={asking.environment === 'live' ? t('setup.liveConfirmTitle') : t('setup.notSetUpTitle', { environment: t(`environment.${asking.environment}`) })}
          confirmLabel={asking.environment === 'live' ? t('setup.liveConfirm') : t('setup.switchAnyway', { environment: t(`environment.${asking.environment}`) })}
          cancelLabel={asking.missing !== null ? t('setup.stayOn', { environment: t(`environment.${current}`) }) : t('setup.cancel')}
          danger
          onConfirm={() => {
            const { environment } = asking;
            setAsking(null);
            void run({ environment });
          }}
          onCancel={() => setAsking(null)}
        >
          {asking.missing !== null && (
            <p data-testid="environment-missing">
              {t(`errors.NOT_CONFIGURED.title_${asking.missing}`, { environment: t(`environment.${asking.environment}`) })}. {t('setup.notSetUpBody', { environment: t(`environment.${asking.environment}`), context: asking.missing === 'key-and-address' ? undefined : asking.missing })}
            </p>
          )}
          {asking.environment === 'live' && <p>{t('setup.liveConfirmBody')}</p>}
        </ConfirmDialog>
      )}
      <BaseUrls />
    </section>
  );
}

/** The environments whose address this change moves, as the station will see it (one spelling per address). */
function movedEnvironments(change: NonNullable<SettingsChange['apiBaseUrls']>, current: Record<KeyedEnvironment, string | null>): KeyedEnvironment[] {
  return keyedEnvironments.filter((environment) => {
    const next = change[environment];
    if (next === undefined) return false;
    return !(next === null ? current[environment] === null : sameApiAddress(next, current[environment]));
  });
}

const keyedEnvironments = ['test', 'live'] as const;

/**
 * Where the test and live Delivery APIs are; the sandbox is built in. A key is only ever sent to
 * the address it was entered for, so moving an environment that has a key asks first: the station
 * removes that key and it must be entered again.
 */
function BaseUrls() {
  const { t } = useTranslation();
  const id = useId();
  const stores = useStores();
  const station = useStation();
  const urls = useAppState((state) => state.settings?.apiBaseUrls);
  const [drafts, setDrafts] = useState<Partial<Record<KeyedEnvironment, string>>>({});
  const [asking, setAsking] = useState<{ change: NonNullable<SettingsChange['apiBaseUrls']>; environments: KeyedEnvironment[] } | null>(null);
  const [forgotten, setForgotten] = useState<KeyedEnvironment[]>([]);
  // Addresses the station would refuse, said in the station's words (the form is not the browser's to check).
  const [invalid, setInvalid] = useState<KeyedEnvironment[]>([]);
  const save = useCallback((change: SettingsChange) => stores.app.getState().saveSettings(change), [stores]);
  const [run, state] = useAction(save, (result) => {
    setDrafts({});
    setForgotten(result.forgottenKeys);
  });
  if (!urls) return null;
  const names = (list: readonly KeyedEnvironment[]) => list.map((environment) => t(`environment.${environment}`)).join(', ');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const change: NonNullable<SettingsChange['apiBaseUrls']> = {};
    for (const environment of keyedEnvironments) {
      const draft = drafts[environment];
      if (draft !== undefined) change[environment] = draft.trim() === '' ? null : draft.trim();
    }
    const refused = keyedEnvironments.filter((environment) => {
      const address = change[environment];
      return typeof address === 'string' && !ApiBaseUrlSchema.safeParse(address).success;
    });
    setInvalid(refused);
    if (refused.length > 0) {
      document.getElementById(`${id}-${refused[0]}`)?.focus();
      return;
    }
    const moved = movedEnvironments(change, urls);
    if (moved.length > 0) {
      const keys = await station['keys.status']({});
      // Without an answer from the keychain, ask anyway: a key may be there.
      const withKey = keys.ok ? moved.filter((environment) => keys.value.environments.some((status) => status.environment === environment && status.keySet)) : moved;
      if (withKey.length > 0) {
        setAsking({ change, environments: withKey });
        return;
      }
    }
    void run({ apiBaseUrls: change });
  };
  return (
    <form onSubmit={(event) => void submit(event)} className="subsection" noValidate>
      <h3>{t('setup.baseUrls')}</h3>
      <p className="small muted">{t('setup.baseUrlsKeyBound')}</p>
      {keyedEnvironments.map((environment) => (
        <div key={environment} className="field">
          <label htmlFor={`${id}-${environment}`}>{t('setup.baseUrlFor', { environment: t(`environment.${environment}`) })}</label>
          <input
            id={`${id}-${environment}`}
            // Text, not url: the station checks the address and says what is wrong in its own words.
            type="text"
            inputMode="url"
            spellCheck={false}
            autoComplete="off"
            placeholder="https://"
            value={drafts[environment] ?? urls[environment] ?? ''}
            onChange={(event) => setDrafts((current) => ({ ...current, [environment]: event.target.value }))}
            aria-invalid={invalid.includes(environment) || undefined}
            aria-describedby={invalid.includes(environment) ? `${id}-${environment}-invalid` : undefined}
            data-testid={`setting-base-url-${environment}`}
          />
          {invalid.includes(environment) && (
            <p id={`${id}-${environment}-invalid`} className="error-text small" role="alert" data-testid={`base-url-invalid-${environment}`}>
              <Icon name="stop" size={20} /> {t('setup.baseUrlInvalid', { environment: t(`environment.${environment}`) })}
            </p>
          )}
        </div>
      ))}
      <button type="submit" className="button" disabled={state.busy || Object.keys(drafts).length === 0} data-testid="base-urls-save">
        {t('setup.save')}
      </button>
      {state.done && (
        <p className="ok-text small" role="status" data-testid="base-urls-saved">
          <Icon name="check" size={20} /> {forgotten.length > 0 ? t('setup.addressKeysForgotten', { environments: names(forgotten) }) : t('setup.saved')}
        </p>
      )}
      <CallError error={forSetup(state.error)} />
      {asking && (
        <ConfirmDialog
          title={t('setup.addressChangeTitle', { environments: names(asking.environments) })}
          confirmLabel={t('setup.addressChangeConfirm')}
          cancelLabel={t('setup.cancel')}
          danger
          onConfirm={() => {
            const { change } = asking;
            setAsking(null);
            void run({ apiBaseUrls: change });
          }}
          onCancel={() => setAsking(null)}
        >
          <p>{t('setup.addressChangeBody', { environments: names(asking.environments) })}</p>
        </ConfirmDialog>
      )}
    </form>
  );
}
