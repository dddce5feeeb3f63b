import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { JournalEntryData, LabelState } from '../../../shared/contract/printing';
import { CallError } from '../components/CallError';
import { Icon, type IconName } from '../components/Icon';
import { ReasonDialog } from '../components/ReasonDialog';
import { useAction } from '../components/use-action';
import { formatDateTime } from '../i18n/format';
import { downloadText } from '../journal/download';
import { journalCsv } from '../journal/journal-csv';
import { entryTime, localDay, reprintScan, searchJournal } from '../journal/journal-search';
import { EntryPreviewDialog } from '../preview/PreviewDialog';
import type { ReprintReason } from '../scan/commands';
import { useStation } from '../station-context';
import { useAppState } from '../state/stores-context';
import { ScreenHeading } from './ScreenHeading';

/** The newest labels the screen loads; the search runs over them. */
export const journalLimit = 1000;

const stateIcon: Record<LabelState, IconName> = {
  queued: 'hourglass',
  fetched: 'hourglass',
  sent: 'printer',
  printed: 'check',
  failed: 'stop',
  uncertain: 'warning',
};
const stateTone: Record<LabelState, string> = {
  queued: '',
  fetched: '',
  sent: '',
  printed: 'tone-text-success',
  failed: 'tone-text-danger',
  uncertain: 'tone-text-warning',
};

export default function HistoryScreen() {
  const { t, i18n } = useTranslation();
  const id = useId();
  const station = useStation();
  const operator = useAppState((state) => state.settings?.operator ?? '');
  const [entries, setEntries] = useState<JournalEntryData[] | null>(null);
  const [text, setText] = useState('');
  const [day, setDay] = useState('');
  const [reprinting, setReprinting] = useState<JournalEntryData | null>(null);
  const [previewing, setPreviewing] = useState<JournalEntryData | null>(null);
  const [reprinted, setReprinted] = useState<string | null>(null);

  const load = useCallback(() => station['printing.journal']({ limit: journalLimit }), [station]);
  const [reload, loadState] = useAction(load, (value) => setEntries(value.entries));
  useEffect(() => {
    void reload();
  }, [reload]);

  const reprintCall = useCallback(
    (entry: JournalEntryData, reason: ReprintReason) =>
      station['printing.print']({
        scan: reprintScan(entry) ?? '',
        reprint: { reason: t(`reprint.reasons.${reason}`), ...(operator.trim() ? { operator: operator.trim() } : {}) },
      }),
    [station, t, operator],
  );
  const [runReprint, reprintState] = useAction(reprintCall, (value) => {
    setReprinted(value.order.orderRef ?? value.order.orderId);
    void reload();
  });

  const found = useMemo(() => (entries ? searchJournal(entries, { text, day }) : []), [entries, text, day]);

  return (
    <div className="screen">
      <ScreenHeading>{t('history.title')}</ScreenHeading>
      <form className="search-bar" role="search" onSubmit={(event) => event.preventDefault()}>
        <div className="field">
          <label htmlFor={`${id}-text`}>{t('history.search')}</label>
          <input id={`${id}-text`} type="search" value={text} onChange={(event) => setText(event.target.value)} placeholder={t('history.searchPlaceholder')} data-testid="history-search" />
        </div>
        <div className="field">
          <label htmlFor={`${id}-day`}>{t('history.day')}</label>
          <input id={`${id}-day`} type="date" value={day} onChange={(event) => setDay(event.target.value)} data-testid="history-day" />
        </div>
        <div className="button-row">
          <button type="button" className="button" onClick={() => void reload()} disabled={loadState.busy}>
            {t('history.refresh')}
          </button>
          <button type="button" className="button" onClick={() => downloadText(`print-journal-${localDay(new Date().toISOString())}.csv`, journalCsv(found))} disabled={found.length === 0} data-testid="history-export">
            <Icon name="file" size={24} />
            {t('history.export')}
          </button>
        </div>
      </form>
      <CallError error={loadState.error ?? reprintState.error} />
      {reprinted && reprintState.done && (
        <p className="ok-text" role="status" data-testid="history-reprinted">
          <Icon name="check" size={24} /> {t('history.reprinted', { orderRef: reprinted })}
        </p>
      )}
      {entries && (
        <p className="small muted" data-testid="history-count">
          {t('history.count', { shown: found.length, total: entries.length })}
          {entries.length >= journalLimit && ` ${t('history.limited', { limit: journalLimit })}`}
        </p>
      )}
      {entries && found.length === 0 && (
        <p className="panel-note" data-testid="history-empty">
          {entries.length === 0 ? t('history.empty') : t('history.noMatch')}
        </p>
      )}
      {found.length > 0 && (
        <div className="table-wrap">
          <table className="table" data-testid="history-table">
            <thead>
              <tr>
                <th scope="col">{t('history.time')}</th>
                <th scope="col">{t('history.order')}</th>
                <th scope="col">{t('history.bundle')}</th>
                <th scope="col">{t('history.printer')}</th>
                <th scope="col">{t('history.operator')}</th>
                <th scope="col">{t('history.state')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('history.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {found.map((entry) => (
                <tr key={entry.id} data-testid={`history-row-${entry.id}`}>
                  <td>{formatDateTime(entryTime(entry), i18n.language)}</td>
                  <td>
                    <strong>{entry.orderRef ?? entry.barcode ?? entry.orderId ?? '—'}</strong>
                    <br />
                    <span className="small muted">{[entry.recipient, entry.barcode].filter(Boolean).join(' · ')}</span>
                  </td>
                  <td>
                    {entry.bundleId ?? '—'}
                    {entry.bundlePosition !== null && entry.bundleCount !== null && (
                      <span className="small muted"> {t('history.nOfM', { n: entry.bundlePosition, m: entry.bundleCount })}</span>
                    )}
                  </td>
                  <td>{entry.printerName ?? entry.printerId}</td>
                  <td>{entry.operator || '—'}</td>
                  <td className={stateTone[entry.state]}>
                    <Icon name={stateIcon[entry.state]} size={22} /> {t(`history.states.${entry.state}`)}
                    {entry.reprintOf !== null && <span className="small"> · {t('history.reprint')}</span>}
                    {entry.reason && <div className="small muted">{entry.reason}</div>}
                  </td>
                  <td>
                    <span className="row-actions">
                      {entry.orderId !== null && (
                        <button type="button" className="button" onClick={() => setPreviewing(entry)} data-testid={`history-preview-${entry.id}`}>
                          <Icon name="eye" size={22} />
                          {t('recent.preview')}
                        </button>
                      )}
                      {reprintScan(entry) && (
                        <button type="button" className="button" onClick={() => setReprinting(entry)} disabled={reprintState.busy} data-testid={`history-reprint-${entry.id}`}>
                          <Icon name="redo" size={22} />
                          {t('recent.reprint')}
                        </button>
                      )}
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {previewing && (
        <EntryPreviewDialog
          entryId={previewing.id}
          orderRef={previewing.orderRef ?? previewing.barcode ?? previewing.orderId ?? ''}
          onClose={() => setPreviewing(null)}
        />
      )}
      {reprinting && (
        <ReasonDialog
          orderRef={reprinting.orderRef ?? reprinting.barcode ?? reprinting.orderId ?? ''}
          onChoose={(reason) => {
            const entry = reprinting;
            setReprinting(null);
            void runReprint(entry, reason);
          }}
          onCancel={() => setReprinting(null)}
        />
      )}
    </div>
  );
}
