import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { StoreChoice, StoreStatus, StoreTestResult, StoreTlsMode } from '../../../../shared/contract/store';
import type { StationErrorData } from '../../../../shared/errors';
import { CallError } from '../../components/CallError';
import { InView } from '../../components/InView';
import { Icon } from '../../components/Icon';
import { useAction } from '../../components/use-action';
import { useStation } from '../../station-context';
import { OfflineDuplicates } from './OfflineDuplicates';

const tlsModes: readonly StoreTlsMode[] = ['verify-full', 'require', 'disable'];

/** The address as typed without its sslmode: the TLS mode has a field of its own. */
function addressWithoutTls(address: string): string {
  try {
    const url = new URL(address);
    url.searchParams.delete('sslmode');
    return url.toString().replace(/\?$/, '');
  } catch {
    return address;
  }
}

/**
 * Where this bench keeps its orders and journal: its own file, or the warehouse's shared
 * PostgreSQL store (for IT). The password is typed, sent once to the OS keychain and never shown
 * again; the screen learns only whether one is stored. A new choice applies at the next start.
 */
export function StoreSection() {
  const { t } = useTranslation();
  const id = useId();
  const station = useStation();
  const [status, setStatus] = useState<StoreStatus | null>(null);
  const [kind, setKind] = useState<'local' | 'postgres'>('local');
  const [address, setAddress] = useState('');
  const [tls, setTls] = useState<StoreTlsMode>('verify-full');
  const [password, setPassword] = useState('');
  // A lead's explicit choice to send the password to a server whose identity is not checked.
  const [acceptUnverified, setAcceptUnverified] = useState(false);
  const [tested, setTested] = useState<StoreTestResult | null>(null);

  const showStatus = useCallback((next: StoreStatus) => {
    setStatus(next);
    setKind(next.chosen.kind);
    if (next.chosen.kind === 'postgres') {
      setAddress(addressWithoutTls(next.chosen.address));
      setTls(next.chosen.tls);
      setAcceptUnverified(next.chosen.unverifiedServerAccepted);
    }
  }, []);
  const load = useCallback(() => station['store.get']({}), [station]);
  const [reload, loadState] = useAction(load, showStatus);
  useEffect(() => {
    void reload();
    return station.on('store.health', (health) => setStatus((current) => (current ? { ...current, health } : current)));
  }, [reload, station]);

  const saveCall = useCallback((choice: StoreChoice) => station['store.set'](choice), [station]);
  const [save, saveState] = useAction(saveCall, showStatus);
  const testCall = useCallback((input: { address: string; tls: StoreTlsMode; password?: string; acceptUnverifiedServer?: boolean }) => station['store.test'](input), [station]);
  const [test, testState] = useAction(testCall, setTested);

  const typedPassword = () => (password === '' ? {} : { password });
  const unverifiedChoice = () => (tls !== 'verify-full' && acceptUnverified ? { acceptUnverifiedServer: true } : {});
  // A shared store saved is asked at once whether it answers: one that does not would stop this
  // bench printing at its next start, and the lead is told so beside "Saved", not after the restart.
  const [savedSilent, setSavedSilent] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const choice: StoreChoice = kind === 'local' ? { kind: 'local' } : { kind: 'postgres', address: address.trim(), tls, ...typedPassword(), ...unverifiedChoice() };
    // The password leaves the page's memory as soon as it is on its way to the keychain.
    setPassword('');
    setTested(null);
    setSavedSilent(false);
    const saved = await save(choice);
    if (!saved.ok || choice.kind !== 'postgres') return;
    const answer = await test({ address: choice.address, tls, ...unverifiedChoice() });
    setSavedSilent(!answer.ok);
  };
  const runTest = () => {
    setTested(null);
    void test({ address: address.trim(), tls, ...typedPassword(), ...unverifiedChoice() });
  };

  const chosen = status?.chosen;
  return (
    <section className="card" aria-labelledby={`${id}-title`} data-testid="store-section">
      <h2 id={`${id}-title`}>{t('setup.store')}</h2>
      <p className="small muted">{t('setup.storeIntro')}</p>
      <CallError error={loadState.error} />
      {status && (
        <p className="key-status" data-testid="store-in-use">
          <Icon name={status.health.state === 'offline' ? 'stop' : 'check'} size={24} />
          {status.inUse.kind === 'local' ? t('setup.storeInUseLocal') : t('setup.storeInUseShared', { address: status.inUse.address ?? '' })}
          {status.health.state !== 'local' && <span className={status.health.state === 'online' ? 'ok-text' : 'error-text'}> — {t(`setup.storeHealth.${status.health.state}`)}</span>}
        </p>
      )}
      {status?.health.state === 'offline' && status.health.problem && (
        <p className="error-text small" role="status" data-testid="store-offline-why">
          {t(`setup.storeProblem.${status.health.problem}`, { server: status.inUse.address ?? '' })}
        </p>
      )}
      {/* The choice shows once the store in use is known: a choice made before would be overwritten by it. */}
      {(status !== null || loadState.error !== null) && (
        <form onSubmit={(event) => void submit(event)} autoComplete="off">
          <fieldset className="field">
            <legend>{t('setup.storeKind')}</legend>
            <label className="checkbox">
              <input type="radio" name={`${id}-kind`} checked={kind === 'local'} onChange={() => setKind('local')} data-testid="store-kind-local" />
              {t('setup.storeLocal')}
            </label>
            <label className="checkbox">
              <input type="radio" name={`${id}-kind`} checked={kind === 'postgres'} onChange={() => setKind('postgres')} data-testid="store-kind-postgres" />
              {t('setup.storeShared')}
            </label>
          </fieldset>
          {kind === 'postgres' && (
            <>
              <div className="field">
                <label htmlFor={`${id}-address`}>{t('setup.storeAddress')}</label>
                <input
                  id={`${id}-address`}
                  type="text"
                  value={address}
                  spellCheck={false}
                  placeholder="postgres://station@db.warehouse.lan:5432/packing"
                  onChange={(event) => setAddress(event.target.value)}
                  aria-describedby={`${id}-address-hint`}
                  data-testid="store-address"
                />
                <p id={`${id}-address-hint`} className="small muted">
                  {t('setup.storeAddressHint')}
                </p>
              </div>
              <div className="field">
                <label htmlFor={`${id}-tls`}>{t('setup.storeTls')}</label>
                <select id={`${id}-tls`} value={tls} onChange={(event) => setTls(event.target.value as StoreTlsMode)} data-testid="store-tls">
                  {tlsModes.map((mode) => (
                    <option key={mode} value={mode}>
                      {t(`setup.storeTlsMode.${mode}`)}
                    </option>
                  ))}
                </select>
              </div>
              {tls !== 'verify-full' && (
                <div className="field">
                  <p className="error-text small" role="note" data-testid="store-unverified-warning">
                    <Icon name="stop" size={20} /> {t('setup.storeUnverifiedWarning')}
                  </p>
                  <label className="checkbox">
                    <input type="checkbox" checked={acceptUnverified} onChange={(event) => setAcceptUnverified(event.target.checked)} data-testid="store-accept-unverified" />
                    {t('setup.storeAcceptUnverified')}
                  </label>
                </div>
              )}
              <div className="field">
                <label htmlFor={`${id}-password`}>{chosen?.kind === 'postgres' && chosen.passwordStored ? t('setup.storePasswordReplace') : t('setup.storePassword')}</label>
                <input
                  id={`${id}-password`}
                  type="password"
                  value={password}
                  autoComplete="new-password"
                  spellCheck={false}
                  onChange={(event) => setPassword(event.target.value)}
                  data-testid="store-password"
                />
              </div>
            </>
          )}
          <div className="button-row">
            {kind === 'postgres' && (
              <button type="button" className="button" onClick={runTest} disabled={testState.busy || address.trim() === ''} data-testid="store-test">
                {t('setup.storeTest')}
              </button>
            )}
            <button type="submit" className="button button-primary" disabled={saveState.busy || (kind === 'postgres' && address.trim() === '')} data-testid="store-save">
              {t('setup.save')}
            </button>
          </div>
        </form>
      )}
      <InView>
        {tested && (
          <p className="ok-text small" role="status" data-testid="store-test-result">
            <Icon name="check" size={20} /> {t('setup.storeReachable', { server: tested.server, version: tested.schemaVersion })}
          </p>
        )}
        <StoreFailure error={testState.error ?? saveState.error} />
        {saveState.done && status && !savedSilent && (
          <p className="ok-text small" role="status" data-testid="store-saved">
            <Icon name="check" size={20} /> {status.restartNeeded ? t('setup.storeSavedRestart') : t('setup.saved')}
          </p>
        )}
        {saveState.done && savedSilent && (
          <p className="warning-text small" role="status" data-testid="store-saved-not-answering">
            <Icon name="warning" size={20} /> {t('setup.storeSavedNotAnswering')}
          </p>
        )}
      </InView>
      {status?.inUse.kind === 'postgres' && <OfflineDuplicates />}
    </section>
  );
}

/** A store that could not be reached, worded by its problem; any other refusal as usual. */
function StoreFailure({ error }: { error: StationErrorData | null }) {
  const { t } = useTranslation();
  const problem = error?.facts?.problem;
  if (error && (error.code === 'STORE_UNAVAILABLE' || error.code === 'NOT_CONFIGURED') && typeof problem === 'string') {
    return (
      <p className="error-text" role="alert" data-testid="store-problem" data-code={error.code}>
        <Icon name="stop" size={24} /> {t(`setup.storeProblem.${problem}`, { server: String(error.facts?.server ?? '') })}
      </p>
    );
  }
  return <CallError error={error} testId="store-error" />;
}
