import { useEffect, useRef, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConnectionState } from '../connection-state';
import { Icon } from './Icon';

/**
 * "The station is not running — restart it", on every screen while the page cannot reach the web
 * host; gone by itself once the page reconnected, and the screen then asks the station again.
 */
export function ConnectionBanner({ connection, onBack }: { connection: ConnectionState; onBack(): void }) {
  const { t } = useTranslation();
  const status = useSyncExternalStore(connection.subscribe, connection.get);
  const previous = useRef(status);
  useEffect(() => {
    if (previous.current === 'lost' && status === 'open') onBack();
    previous.current = status;
  }, [status, onBack]);
  if (status === 'open') return null;
  return (
    <div className="connection-error" role="alert" data-testid="station-gone">
      <Icon name="plug" size={32} />
      <div>
        <strong data-testid="station-gone-title">{t('errors.STATION_UNREACHABLE.title')}</strong> —{' '}
        <span data-testid="station-gone-action">{t('errors.STATION_UNREACHABLE.action')}</span>
        <p className="small">{t('app.reconnecting')}</p>
      </div>
    </div>
  );
}
