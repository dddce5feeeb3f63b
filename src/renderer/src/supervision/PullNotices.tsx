import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { stationNameWords } from '../i18n/station-name';
import type { PullNoticeData } from '../../../shared/contract/supervision';
import { CallError } from '../components/CallError';
import { Icon } from '../components/Icon';
import { useAction } from '../components/use-action';
import { formatDateTime } from '../i18n/format';
import { useStation } from '../station-context';
import { useAppState } from '../state/stores-context';

/**
 * "Pull this parcel" notices: read from the station (they live in its database), so a reload or a
 * restart shows them again until a lead acknowledges each one by name.
 */
export function PullNotices() {
  const { t, i18n } = useTranslation();
  const station = useStation();
  const operator = useAppState((state) => state.settings?.operator ?? '');
  const environment = useAppState((state) => state.info?.environment);
  const [notices, setNotices] = useState<PullNoticeData[]>([]);
  const [by, setBy] = useState('');

  const list = useCallback(() => station['supervision.notices']({}), [station]);
  const [reload, loadState] = useAction(list, setNotices);
  useEffect(() => {
    void reload();
    return station.on('supervision.notice', () => void reload());
  }, [reload, station, environment]);

  const acknowledge = useCallback((id: number, who: string) => station['supervision.acknowledge']({ id, by: who }), [station]);
  const [runAcknowledge, acknowledgeState] = useAction(acknowledge, () => void reload());

  if (notices.length === 0) {
    // None known: with the store offline its banner already says so, and a "Pull these 0 parcels"
    // panel would only push the scan's result off the screen. Any other refusal is said in a line.
    if (!loadState.error || loadState.error.code === 'STORE_OFFLINE' || loadState.error.code === 'STORE_UNAVAILABLE') return null;
    return (
      <section className="pull-notices" role="alert" aria-label={t('supervision.pull.unreadable')} data-testid="pull-notices">
        <CallError error={loadState.error} />
      </section>
    );
  }
  const who = by.trim() || operator.trim();
  return (
    <section className="pull-notices" role="alert" aria-label={t('supervision.pull.title')} data-testid="pull-notices">
      <h2 className="pull-title">
        <Icon name="warning" size={28} /> {t('supervision.pull.title', { count: notices.length })}
      </h2>
      <CallError error={loadState.error ?? acknowledgeState.error} />
      <ul>
        {notices.map((notice) => (
          <li key={notice.id} className="pull-notice" data-testid={`pull-notice-${notice.orderId}`}>
            <strong>{notice.orderRef ?? notice.orderId}</strong> {notice.barcode && <span className="small muted">{notice.barcode}</span>}
            <div>{t(`supervision.pull.status.${notice.status}`)}</div>
            <div className="small">
              {t('supervision.pull.printed', { bench: stationNameWords(notice.bench, t), time: notice.printedAt ? formatDateTime(notice.printedAt, i18n.language) : '—' })}
            </div>
            <div className="pull-action">{t(`supervision.pull.action.${notice.status}`)}</div>
            <button type="button" className="button" disabled={who === '' || acknowledgeState.busy} onClick={() => void runAcknowledge(notice.id, who)} data-testid={`pull-ack-${notice.id}`}>
              <Icon name="check" size={22} /> {t('supervision.pull.acknowledge')}
            </button>
          </li>
        ))}
      </ul>
      <div className="field">
        <label htmlFor="pull-notices-by">{t('supervision.pull.by')}</label>
        <input id="pull-notices-by" value={by} placeholder={operator} onChange={(event) => setBy(event.target.value)} data-testid="pull-ack-by" />
      </div>
    </section>
  );
}
