import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { StoreHealthData } from '../../../shared/contract/store';
import { formatClock } from '../i18n/format';
import { useStation } from '../station-context';
import { useAppState } from '../state/stores-context';
import { AllowLocalPrintingDialog } from '../store-offline/AllowLocalPrintingDialog';
import { returnFocusToScreen } from '../store-offline/return-focus';
import { CallError } from './CallError';
import { Icon } from './Icon';
import { useAction } from './use-action';

/**
 * The shared store's state on every screen. Offline: "printing would skip the duplicate guard",
 * and a lead may allow local-only printing for this bench. While allowed: who allowed it, when and
 * why, and a way to stop it. Once the store is back: the merge of the bench's local labels. Gone
 * when the store answers and nothing is left to merge.
 */
export function StoreOfflineBanner() {
  const { t, i18n } = useTranslation();
  const station = useStation();
  const operator = useAppState((state) => state.settings?.operator ?? '');
  const [health, setHealth] = useState<StoreHealthData | null>(null);
  const [asking, setAsking] = useState(false);
  const load = useCallback(async () => {
    const result = await station['store.get']({});
    if (result.ok) setHealth(result.value.health);
  }, [station]);
  useEffect(() => {
    const stop = station.on('store.health', setHealth);
    void load();
    return stop;
  }, [station, load]);
  const endCall = useCallback(() => station['store.endLocalPrinting']({}), [station]);
  const [end, endState] = useAction(endCall, setHealth);

  // The control that had the focus (the button pressed, replaced by the banner's next state) is
  // gone: the scan screen gets it back. A cancelled form hands it back to its button itself.
  const focusLeft = useRef(false);
  useEffect(() => {
    if (!focusLeft.current) return;
    focusLeft.current = false;
    returnFocusToScreen(document);
  });
  const closeDialog = (answered: boolean) => {
    focusLeft.current = answered;
    setAsking(false);
  };

  const local = health?.localPrinting ?? null;
  if (local?.ending) {
    return (
      <div className="connection-error store-banner" role="status" data-testid="store-offline" data-state="merging">
        <Icon name="plug" size={32} />
        <p className="store-banner-text" data-testid="store-offline-text">
          {t('store.merging')}
        </p>
      </div>
    );
  }
  if (local) {
    const words = t('store.localOn', { by: local.allowedBy, time: formatClock(local.since, i18n.language), reason: local.reason });
    return (
      <div className="connection-error store-banner" role="status" data-testid="store-offline" data-state="local">
        <Icon name="warning" size={32} />
        <p className="store-banner-text store-banner-local" title={words} data-testid="store-offline-text">
          {words}
        </p>
        <button
          type="button"
          className="button"
          disabled={endState.busy}
          onClick={() => {
            focusLeft.current = true;
            void end();
          }}
          data-testid="store-local-stop"
        >
          {t('store.localStop')}
        </button>
        <CallError error={endState.error} testId="store-local-stop-error" />
      </div>
    );
  }
  if (health?.state !== 'offline') return null;
  return (
    <div className="connection-error store-banner" role="alert" data-testid="store-offline" data-state="offline">
      <Icon name="plug" size={32} />
      <div className="store-banner-text">
        <strong>{t('store.offlineTitle')}</strong> — <span>{t('store.offlineAction')}</span>
        <p className="small">{t('store.offlineRetrying')}</p>
      </div>
      <button type="button" className="button" onClick={() => setAsking(true)} data-testid="store-local-allow">
        {t('store.allowOpen')}
      </button>
      {asking && (
        <AllowLocalPrintingDialog
          operator={operator}
          onAllowed={(next) => {
            setHealth(next);
            closeDialog(true);
          }}
          onCancel={() => closeDialog(false)}
        />
      )}
    </div>
  );
}
