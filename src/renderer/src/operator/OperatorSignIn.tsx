import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialogShell } from '../components/ConfirmDialog';
import { Icon } from '../components/Icon';
import { isOperatorBadge, operatorFromBadge, signIn } from '../scan/operator-badge';
import { useStores } from '../state/stores-context';

/**
 * The name field of a sign-in: typed, or a badge scanned into it (the field takes the badge's
 * text; its name is what counts).
 */
function SignInForm({ onSignedIn, autoFocus, testId }: { onSignedIn(): void; autoFocus: boolean; testId: string }) {
  const { t } = useTranslation();
  const stores = useStores();
  const id = useId();
  const [name, setName] = useState('');
  const [failed, setFailed] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const typed = isOperatorBadge(name) ? operatorFromBadge(name) : name.trim();
    if (typed === '') return;
    const ok = await signIn(stores, typed);
    setFailed(!ok);
    if (ok) {
      setName('');
      onSignedIn();
    }
  };
  return (
    <form className="operator-form" onSubmit={(event) => void submit(event)} data-testid={testId}>
      <label htmlFor={`${id}-name`}>{t('operator.nameLabel')}</label>
      <div className="input-row">
        <input
          id={`${id}-name`}
          type="text"
          value={name}
          maxLength={120}
          autoComplete="off"
          spellCheck={false}
          autoFocus={autoFocus}
          onChange={(event) => setName(event.target.value)}
          data-testid="operator-name"
        />
        <button type="submit" className="button button-primary" disabled={name.trim() === ''} data-testid="operator-sign-in">
          {t('operator.signIn')}
        </button>
      </div>
      {failed && (
        <p className="error-text" role="alert">
          {t('operator.failed')}
        </p>
      )}
    </form>
  );
}

/**
 * Asked at first run and at every start of the station (a shift lasts until the station is
 * restarted or the operator signs out). Not a modal: a parcel can still be scanned meanwhile,
 * and scanning a badge anywhere answers it.
 */
export function OperatorPrompt({ onLater }: { onLater(): void }) {
  const { t } = useTranslation();
  return (
    <section className="operator-prompt" aria-labelledby="operator-prompt-title" data-testid="operator-prompt">
      <Icon name="info" size={32} />
      <div className="operator-prompt-body">
        <h2 id="operator-prompt-title" title={t('operator.promptTitle')}>
          {t('operator.promptTitle')}
        </h2>
        <p className="small">{t('operator.promptHint')}</p>
        <SignInForm onSignedIn={() => undefined} autoFocus={false} testId="operator-prompt-form" />
      </div>
      <button type="button" className="button" onClick={onLater} data-testid="operator-later">
        {t('operator.later')}
      </button>
    </section>
  );
}

/** A reprint with nobody signed in: the name is asked there and then, and the reprint goes ahead. */
export function OperatorDialog({ onCancel }: { onCancel(): void }) {
  const { t } = useTranslation();
  return (
    <ConfirmDialogShell title={t('operator.reprintTitle')} onCancel={onCancel}>
      <p>{t('operator.reprintBody')}</p>
      <SignInForm onSignedIn={() => undefined} autoFocus testId="operator-dialog-form" />
      <div className="button-row">
        <button type="button" className="button" onClick={onCancel} data-testid="operator-dialog-cancel">
          {t('setup.cancel')}
        </button>
      </div>
    </ConfirmDialogShell>
  );
}

/** Always on screen: who is signed in (the journal records them), and sign out at the end of a shift. */
export function OperatorBadge({ name, onSignOut, onSignIn }: { name: string; onSignOut(): void; onSignIn(): void }) {
  const { t } = useTranslation();
  if (name === '') {
    return (
      <button type="button" className="operator-badge operator-badge-none" onClick={onSignIn} data-testid="operator-badge">
        <span className="operator-badge-text">
          <small>{t('operator.badgeLabel')}</small>
          <strong data-testid="operator-badge-name">{t('operator.nobody')}</strong>
        </span>
      </button>
    );
  }
  return (
    <div className="operator-badge" data-testid="operator-badge">
      <span className="operator-badge-text">
        <small data-testid="operator-badge-label">{t('operator.badgeLabel')}</small>
        <strong className="truncate" title={name} data-testid="operator-badge-name">
          {name}
        </strong>
      </span>
      <button type="button" className="button button-quiet operator-sign-out" onClick={onSignOut} data-testid="operator-sign-out">
        {t('operator.signOut')}
      </button>
    </div>
  );
}
