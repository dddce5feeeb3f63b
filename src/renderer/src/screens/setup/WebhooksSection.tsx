import { useCallback, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CallOutput } from '../../../../shared/contract';
import { CallError } from '../../components/CallError';
import { Icon } from '../../components/Icon';
import { useAction } from '../../components/use-action';
import { useStation } from '../../station-context';
import { useAppState } from '../../state/stores-context';

type ReceiverStatus = CallOutput<'webhooks.status'>;

/** A host as it goes into a URL: IPv6 in brackets, "every address" as this PC's name. */
export function receiverUrl(status: Pick<ReceiverStatus, 'host' | 'port'>, path: string): string {
  const host = status.host === '0.0.0.0' || status.host === '::' ? '<this-pc>' : status.host.includes(':') ? `[${status.host}]` : status.host;
  return `http://${host}:${status.port}${path}`;
}

/** The webhook receiver: status changes from the service keep the order index current. */
export function WebhooksSection() {
  const { t } = useTranslation();
  const id = useId();
  const station = useStation();
  const environment = useAppState((state) => state.settings?.environment);
  const [status, setStatus] = useState<ReceiverStatus | null>(null);
  const load = useCallback(() => station['webhooks.status']({}), [station]);
  const start = useCallback(() => station['webhooks.start']({}), [station]);
  const stop = useCallback(() => station['webhooks.stop']({}), [station]);
  const [reload] = useAction(load, setStatus);
  const [turnOn, onState] = useAction(start, setStatus);
  const [turnOff, offState] = useAction(stop, setStatus);
  useEffect(() => {
    void reload();
  }, [reload]);
  if (!status) return null;
  const path = status.paths.find((entry) => entry.environment === environment)?.path;

  return (
    <section className="card" aria-labelledby={`${id}-title`} data-testid="webhooks-section">
      <h2 id={`${id}-title`}>{t('setup.webhooks')}</h2>
      <p className="small muted">{t('setup.webhooksIntro')}</p>
      <p className="key-status" data-testid="webhooks-state">
        <Icon name={status.running ? 'check' : 'info'} size={24} />
        {status.running ? t('setup.webhooksOn') : t('setup.webhooksOff')}
      </p>
      {status.running && path && (
        <p>
          {t('setup.webhooksUrl')} <code className="mono" data-testid="webhooks-url">{receiverUrl(status, path)}</code>
        </p>
      )}
      {status.problem && (
        <p className="error-text" role="alert">
          <Icon name="stop" size={24} /> {t(`setup.webhooksProblem.${status.problemCode ?? 'cannot-listen'}`, { host: status.host, port: status.port })}
        </p>
      )}
      <button
        type="button"
        className="button"
        aria-pressed={status.running}
        onClick={() => void (status.running ? turnOff() : turnOn())}
        disabled={onState.busy || offState.busy}
        data-testid="webhooks-toggle"
      >
        {status.running ? t('setup.webhooksTurnOff') : t('setup.webhooksTurnOn')}
      </button>
      <CallError error={onState.error ?? offState.error} />
    </section>
  );
}
