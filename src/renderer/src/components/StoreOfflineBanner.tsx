import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { StoreHealthData } from '../../../shared/contract/store';
import { useStation } from '../station-context';
import { Icon } from './Icon';

/**
 * "Shared store offline — printing would skip the duplicate guard", on every screen while the
 * warehouse's shared store does not answer; gone by itself when it is back.
 */
export function StoreOfflineBanner() {
  const { t } = useTranslation();
  const station = useStation();
  const [health, setHealth] = useState<StoreHealthData | null>(null);
  const load = useCallback(async () => {
    const result = await station['store.get']({});
    if (result.ok) setHealth(result.value.health);
  }, [station]);
  useEffect(() => {
    const stop = station.on('store.health', setHealth);
    void load();
    return stop;
  }, [station, load]);
  if (health?.state !== 'offline') return null;
  return (
    <div className="connection-error" role="alert" data-testid="store-offline">
      <Icon name="plug" size={32} />
      <div>
        <strong>{t('store.offlineTitle')}</strong> — <span>{t('store.offlineAction')}</span>
        <p className="small">{t('store.offlineRetrying')}</p>
      </div>
    </div>
  );
}
