import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { CallOutput } from '../../../../shared/contract';
import type { KeyedEnvironment } from '../../../../shared/contract/settings';
import { CallError } from '../../components/CallError';
import { InView } from '../../components/InView';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Icon } from '../../components/Icon';
import { useAction } from '../../components/use-action';
import { formatDateTime } from '../../i18n/format';
import { useStation } from '../../station-context';
import { useAppState, useStores } from '../../state/stores-context';
import { forSetup } from './setup-error';

type KeysStatus = CallOutput<'keys.status'>;
type EnvironmentKeyStatus = KeysStatus['environments'][number];

/**
 * The API key per environment, write-only: typed once, sent to the OS keychain, never shown
 * again. The screen only ever learns whether a key is set and how its last check went.
 */
export function KeysSection() {
  const { t } = useTranslation();
  const id = useId();
  const station = useStation();
  const [status, setStatus] = useState<KeysStatus | null>(null);
  const load = useCallback(() => station['keys.status']({}), [station]);
  const [reload, loadState] = useAction(load, setStatus);
  // A new address removes that environment's key, so the status is read again after one.
  const addresses = useAppState((state) => JSON.stringify(state.settings?.apiBaseUrls ?? null));
  useEffect(() => {
    void reload();
  }, [reload, addresses]);

  return (
    <section className="card" aria-labelledby={`${id}-title`} data-testid="keys-section">
      <h2 id={`${id}-title`}>{t('setup.apiKeys')}</h2>
      <p className="small muted">{t('setup.apiKeysIntro')}</p>
      {status && !status.keychain.available && <KeychainNeeds />}
      <CallError error={forSetup(loadState.error)} />
      {status?.environments.map((environment) => (
        <EnvironmentKey key={environment.environment} status={environment} onChanged={() => void reload()} />
      ))}
    </section>
  );
}

/**
 * Read by IT, who can fix it: what each system needs for the station to keep a key. All three are
 * listed, since the screen may be shown in a browser on another system than the station's.
 */
function KeychainNeeds() {
  const { t } = useTranslation();
  return (
    <div className="error-text keychain-needs" role="alert" data-testid="keychain-unavailable">
      <p>
        <Icon name="stop" size={24} /> {t('setup.keychainUnavailable')} {t('setup.keychainNeedsIntro')}
      </p>
      <ul>
        <li>{t('setup.keychainNeeds.windows')}</li>
        <li>{t('setup.keychainNeeds.macos')}</li>
        <li>{t('setup.keychainNeeds.linux')}</li>
      </ul>
    </div>
  );
}

function EnvironmentKey({ status, onChanged }: { status: EnvironmentKeyStatus; onChanged(): void }) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const station = useStation();
  const stores = useStores();
  const environment: KeyedEnvironment = status.environment;
  const [key, setKey] = useState('');
  const [verify, setVerify] = useState(true);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const afterChange = useCallback(() => {
    onChanged();
    void stores.app.getState().loadInfo();
  }, [onChanged, stores]);

  const setCall = useCallback((input: { key: string; verify: boolean }) => station['keys.set']({ environment, ...input }), [station, environment]);
  const [saveKey, saveState] = useAction(setCall, afterChange);
  const verifyCall = useCallback(() => station['keys.verify']({ environment }), [station, environment]);
  const [verifyKey, verifyState] = useAction(verifyCall, afterChange);
  const removeCall = useCallback(() => station['keys.remove']({ environment }), [station, environment]);
  const [removeKey, removeState] = useAction(removeCall, afterChange);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const typed = key;
    // The field is emptied at once: the key must not stay on screen or in the page's memory.
    setKey('');
    void saveKey({ key: typed, verify });
  };
  const verification = status.verification;
  const name = t(`environment.${environment}`);

  return (
    <form className="subsection key-form" onSubmit={submit} data-testid={`key-${environment}`} autoComplete="off">
      <h3>{t('setup.keyFor', { environment: name })}</h3>
      <p className="key-status" data-testid={`key-status-${environment}`}>
        <Icon name={status.keySet ? 'check' : 'info'} size={24} />
        {status.keySet ? t('setup.keySet') : t('setup.noKey')}
        {verification && (
          <span className={verification.outcome === 'accepted' ? 'ok-text' : 'error-text'}>
            {' — '}
            {t(`setup.verification.${verification.outcome}`, { time: formatDateTime(verification.checkedAt, i18n.language) })}
          </span>
        )}
      </p>
      <div className="field">
        <label htmlFor={`${id}-key`}>{status.keySet ? t('setup.replaceKey') : t('setup.enterKey')}</label>
        <div className="input-row">
          <input
            id={`${id}-key`}
            type="password"
            value={key}
            autoComplete="new-password"
            spellCheck={false}
            onChange={(event) => setKey(event.target.value)}
            data-testid={`key-input-${environment}`}
          />
          <button type="submit" className="button button-primary" disabled={saveState.busy || key.trim() === ''} data-testid={`key-save-${environment}`}>
            {t('setup.saveKey')}
          </button>
        </div>
        <label className="checkbox">
          <input type="checkbox" checked={verify} onChange={(event) => setVerify(event.target.checked)} />
          {t('setup.verifyBeforeSaving')}
        </label>
      </div>
      {status.keySet && (
        <div className="button-row">
          <button type="button" className="button" onClick={() => void verifyKey()} disabled={verifyState.busy}>
            {t('setup.verifyKey')}
          </button>
          <button type="button" className="button" onClick={() => setConfirmRemove(true)} disabled={removeState.busy} data-testid={`key-remove-${environment}`}>
            {t('setup.removeKey')}
          </button>
        </div>
      )}
      <InView>
        {saveState.done && (
          <p className="ok-text small" role="status">
            <Icon name="check" size={20} /> {t('setup.keySaved')}
          </p>
        )}
        {verifyState.done && (
          <p className="small" role="status">
            {t('setup.verifyDone')}
          </p>
        )}
        <CallError error={forSetup(saveState.error ?? verifyState.error ?? removeState.error)} testId={`key-error-${environment}`} />
      </InView>
      {confirmRemove && (
        <ConfirmDialog
          title={t('setup.removeKeyTitle', { environment: name })}
          confirmLabel={t('setup.removeKey')}
          cancelLabel={t('setup.cancel')}
          danger
          onConfirm={() => {
            setConfirmRemove(false);
            void removeKey();
          }}
          onCancel={() => setConfirmRemove(false)}
        >
          <p>{t('setup.removeKeyBody')}</p>
        </ConfirmDialog>
      )}
    </form>
  );
}
