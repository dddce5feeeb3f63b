import { useCallback, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { stationNameWords } from '../../i18n/station-name';
import type { OfflineDuplicate } from '../../../../shared/contract/store';
import { CallError } from '../../components/CallError';
import { useAction } from '../../components/use-action';
import { formatDateTime } from '../../i18n/format';
import { useStation } from '../../station-context';

const journalStates = ['queued', 'fetched', 'sent', 'printed', 'failed', 'uncertain'];

/**
 * "Printed twice while offline": labels a bench printed locally while the shared store was
 * offline whose order (or bundle page) has another label in the shared journal, newest first.
 * Read again each time a bench's local labels are merged.
 */
export function OfflineDuplicates() {
  const { t, i18n } = useTranslation();
  const id = useId();
  const station = useStation();
  const [duplicates, setDuplicates] = useState<OfflineDuplicate[] | null>(null);
  const reportCall = useCallback(() => station['store.offlineReport']({}), [station]);
  const [load, loadState] = useAction(reportCall, (report) => setDuplicates(report.duplicates));
  useEffect(() => {
    void load();
    return station.on('store.offlineMerged', () => void load());
  }, [load, station]);

  const time = (iso: string) => formatDateTime(iso, i18n.language);
  const bench = (name: string | null) => (name === null ? t('setup.offlineTwiceNoBench') : stationNameWords(name, t));
  const state = (name: string) => (journalStates.includes(name) ? t(`history.states.${name}`) : name);
  return (
    <div aria-labelledby={`${id}-title`} data-testid="offline-twice">
      <h3 id={`${id}-title`}>{t('setup.offlineTwice')}</h3>
      <p className="small muted">{t('setup.offlineTwiceIntro')}</p>
      <CallError error={loadState.error} testId="offline-twice-error" />
      {duplicates?.length === 0 && (
        <p className="small" data-testid="offline-twice-empty">
          {t('setup.offlineTwiceEmpty')}
        </p>
      )}
      {duplicates && duplicates.length > 0 && (
        <ul className="offline-twice-list">
          {duplicates.map((duplicate) => (
            <li key={duplicate.entryId} data-testid="offline-twice-item">
              <strong data-testid="offline-twice-subject">
                {duplicate.orderId ?? t('setup.offlineTwiceBundle', { bundle: duplicate.bundleId ?? '?', page: duplicate.bundlePosition ?? '?' })}
              </strong>
              <p className="small">
                {t('setup.offlineTwiceLocal', {
                  time: time(duplicate.printedAt),
                  bench: bench(duplicate.benchName),
                  operator: duplicate.operator,
                  reason: duplicate.localReason,
                  by: duplicate.localAllowedBy ?? duplicate.operator,
                })}
              </p>
              <p className="small" data-testid="offline-twice-other">
                {t('setup.offlineTwiceOther', { bench: bench(duplicate.other.benchName), time: time(duplicate.other.at), state: state(duplicate.other.state) })}
              </p>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
