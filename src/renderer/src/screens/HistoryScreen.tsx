import { Fragment, useCallback, useEffect, useId, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { JournalEntryData, LabelState } from '../../../shared/contract/printing';
import { CallError } from '../components/CallError';
import { Icon, type IconName } from '../components/Icon';
import { InView } from '../components/InView';
import { ReasonDialog } from '../components/ReasonDialog';
import { useAction } from '../components/use-action';
import { formatClock, formatDateTime, formatDay } from '../i18n/format';
import { downloadText } from '../journal/download';
import { journalCsv } from '../journal/journal-csv';
import { reasonWords } from '../journal/reason-words';
import { entryTime, journalDays, localDay, reprintScan, searchJournal } from '../journal/journal-search';
import { EntryPreviewDialog } from '../preview/PreviewDialog';
import type { ReprintReason } from '../scan/commands';
import { useStation } from '../station-context';
import { useAppState } from '../state/stores-context';
import { DayClosePanel } from '../supervision/DayClosePanel';
import { VoidDialog, type VoidRequest } from '../supervision/VoidDialog';
import { WhereaboutsPanel } from '../supervision/WhereaboutsPanel';
import type { CallResult } from '../../../shared/contract';
import type { CancelOutcomeData } from '../../../shared/contract/supervision';
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
  const live = useAppState((state) => state.info?.environment === 'live');
  const [voiding, setVoiding] = useState<JournalEntryData | null>(null);
  const [voided, setVoided] = useState<CancelOutcomeData[]>([]);
  const [where, setWhere] = useState<string | null>(null);
  // The row whose action's outcome is shown under its buttons.
  const [actedOn, setActedOn] = useState<number | null>(null);
  const [pullOnly, setPullOnly] = useState(false);
  const [pullOrders, setPullOrders] = useState<Set<string>>(new Set());

  const load = useCallback(() => station['printing.journal']({ limit: journalLimit }), [station]);
  const [reload, loadState] = useAction(load, (value) => setEntries(value.entries));
  useEffect(() => {
    void reload();
  }, [reload]);

  const reprintCall = useCallback(
    (entry: JournalEntryData, reason: ReprintReason) =>
      station['printing.print']({
        scan: reprintScan(entry) ?? '',
        reprint: { reason, ...(operator.trim() ? { operator: operator.trim() } : {}) },
      }),
    [station, operator],
  );
  const [runReprint, reprintState] = useAction(reprintCall, (value) => {
    setReprinted(value.order.orderRef ?? value.order.orderId);
    void reload();
  });

  const voidCall = useCallback(
    async (entry: JournalEntryData, request: VoidRequest): Promise<CallResult<CancelOutcomeData[]>> => {
      const input = { scan: entry.orderId ?? '', reason: request.reason, operator: request.operator, ...(request.confirm !== undefined ? { confirm: request.confirm } : {}) };
      if (!request.bundle) {
        const one = await station['supervision.cancel'](input);
        return one.ok ? { ok: true, value: [one.value] } : one;
      }
      const result = await station['supervision.cancelBundle'](input);
      return result.ok ? { ok: true, value: result.value.results } : result;
    },
    [station],
  );
  const [runVoid, voidState] = useAction(voidCall, (value) => {
    setVoided(value);
    void reload();
  });
  const voidedNow = useMemo(() => new Set(voided.filter((outcome) => outcome.outcome !== 'refused').map((outcome) => outcome.orderId)), [voided]);

  const loadPull = useCallback(() => station['supervision.notices']({}), [station]);
  const [reloadPull] = useAction(loadPull, (notices) => setPullOrders(new Set(notices.map((notice) => notice.orderId))));
  useEffect(() => {
    void reloadPull();
    return station.on('supervision.notice', () => void reloadPull());
  }, [reloadPull, station]);

  const days = useMemo(() => (entries ? journalDays(entries) : []), [entries]);
  const searched = useMemo(() => (entries ? searchJournal(entries, { text, day }) : []), [entries, text, day]);
  const found = useMemo(() => (pullOnly ? searched.filter((entry) => entry.orderId !== null && pullOrders.has(entry.orderId)) : searched), [searched, pullOnly, pullOrders]);
  // One line per label so 20 and more fit on a 1280x800 screen; the chosen row's actions open under it.
  // A search that finds exactly one label chooses it.
  const [selected, setSelected] = useState<number | null>(null);
  const today = localDay(new Date().toISOString());
  const selectedEntry = found.length === 1 ? found[0] : found.find((entry) => entry.id === selected);

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
          {/* The days that have labels, written as the screen's language writes a date (a date field would show the browser's own format). */}
          <select id={`${id}-day`} className="input" value={day} onChange={(event) => setDay(event.target.value)} data-testid="history-day">
            <option value="">{t('history.everyDay')}</option>
            {days.map((each) => (
              <option key={each} value={each}>
                {formatDay(each, i18n.language)}
              </option>
            ))}
          </select>
        </div>
        <label className="checkbox">
          <input type="checkbox" checked={pullOnly} onChange={(event) => setPullOnly(event.target.checked)} data-testid="history-pull-filter" />{' '}
          {t('supervision.pull.filter', { count: pullOrders.size })}
        </label>
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
      <DayClosePanel />
      <CallError error={loadState.error} />
      {where && <WhereaboutsPanel key={where} scan={where} onClose={() => setWhere(null)} />}
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
          <table className="table history-table" data-testid="history-table">
            <thead>
              <tr>
                <th scope="col">{t('history.time')}</th>
                <th scope="col">{t('history.order')}</th>
                <th scope="col">{t('history.state')}</th>
                <th scope="col">{t('history.barcode')}</th>
                <th scope="col">{t('history.bundle')}</th>
                <th scope="col">{t('history.printer')}</th>
                <th scope="col">{t('history.operator')}</th>
              </tr>
            </thead>
            <tbody>
              {found.map((entry) => {
                const isVoided = Boolean(entry.voidedAt) || (entry.orderId !== null && voidedNow.has(entry.orderId));
                const isSelected = selectedEntry?.id === entry.id;
                return (
                  <Fragment key={entry.id}>
                    <tr
                      className={isSelected ? 'history-row history-row-selected' : 'history-row'}
                      data-testid={`history-row-${entry.id}`}
                      tabIndex={0}
                      aria-selected={isSelected}
                      onClick={() => setSelected(entry.id)}
                      onKeyDown={(event) => {
                        if (event.key === 'Enter' || event.key === ' ') {
                          event.preventDefault();
                          setSelected(entry.id);
                        }
                      }}
                    >
                      {/* Today's labels show their time only: the date would push the table past a 1024 px screen. */}
                      <td title={formatDateTime(entryTime(entry), i18n.language)}>
                        {localDay(entryTime(entry)) === today ? formatClock(entryTime(entry), i18n.language) : formatDateTime(entryTime(entry), i18n.language)}
                      </td>
                      <td>
                        <strong>{entry.orderRef ?? entry.barcode ?? entry.orderId ?? '—'}</strong>
                      </td>
                      <td className={isVoided ? 'tone-text-danger' : stateTone[entry.state]} data-testid={`history-state-${entry.id}`} title={entry.reason ? reasonWords(entry.reason, t) : undefined}>
                        <Icon name={isVoided ? 'stop' : stateIcon[entry.state]} size={16} /> {isVoided ? t('supervision.void.state') : t(`history.states.${entry.state}`)}
                        {entry.reprintOf !== null && <span className="small"> · {t('history.reprint')}</span>}
                        {entry.secondCopy && (
                          <span className="small tone-text-warning" data-testid={`history-second-copy-${entry.id}`}>
                            {' '}
                            · {t(`history.secondCopy.${entry.secondCopy.certainty}`, { fault: t(`history.secondCopyFault.${entry.secondCopy.fault}`) })}
                          </span>
                        )}
                        {entry.orderId !== null && pullOrders.has(entry.orderId) && <span className="small tone-text-danger"> · {t('supervision.pull.tag')}</span>}
                        {entry.reason && <span className="small muted"> · {reasonWords(entry.reason, t)}</span>}
                      </td>
                      <td className="small">{entry.barcode ?? '—'}</td>
                      <td>
                        {entry.bundleId ?? '—'}
                        {entry.bundlePosition !== null && entry.bundleCount !== null && (
                          <span className="small muted"> {t('history.nOfM', { n: entry.bundlePosition, m: entry.bundleCount })}</span>
                        )}
                      </td>
                      <td>{entry.printerName ?? entry.printerId}</td>
                      <td>{entry.operator || '—'}</td>
                    </tr>
                    {isSelected && (
                      <tr className="history-actions-row" data-testid="history-actions">
                        <td colSpan={7} className="history-actions-cell">
                          <span className="small muted">{[entry.recipient, entry.barcode].filter(Boolean).join(' · ')}</span>
                          <span className="row-actions">
                            {entry.orderId !== null && (
                              <button type="button" className="button" onClick={() => setPreviewing(entry)} data-testid={`history-preview-${entry.id}`}>
                                <Icon name="eye" size={22} />
                                {t('recent.preview')}
                              </button>
                            )}
                            {entry.orderId !== null && (
                              <button type="button" className="button" onClick={() => setWhere(entry.orderId)} data-testid={`history-where-${entry.id}`}>
                                <Icon name="question" size={22} />
                                {t('supervision.where.button')}
                              </button>
                            )}
                            {entry.orderId !== null && !isVoided && (
                              <button type="button" className="button" onClick={() => setVoiding(entry)} disabled={voidState.busy} data-testid={`history-void-${entry.id}`}>
                                <Icon name="stop" size={22} />
                                {t('supervision.void.button')}
                              </button>
                            )}
                            {reprintScan(entry) && !isVoided && (
                              <button type="button" className="button" onClick={() => setReprinting(entry)} disabled={reprintState.busy} data-testid={`history-reprint-${entry.id}`}>
                                <Icon name="redo" size={22} />
                                {t('recent.reprint')}
                              </button>
                            )}
                          </span>
                          {actedOn === entry.id && (
                            <RowFeedback>
                              <CallError error={voidState.error} testId="history-void-error" />
                              <CallError error={reprintState.error} testId="history-reprint-error" />
                              {voidState.done &&
                                voided.map((outcome) => (
                                  <p key={outcome.orderId} className={outcome.outcome === 'refused' ? 'tone-text-danger' : 'ok-text'} role="status" data-testid={`history-voided-${outcome.orderId}`}>
                                    {t(`supervision.void.outcome.${outcome.outcome}`, { orderRef: outcome.orderRef ?? outcome.orderId, status: outcome.status ?? '?', message: outcome.message ?? t('supervision.void.noReason') })}
                                  </p>
                                ))}
                              {reprinted && reprintState.done && (
                                <p className="ok-text" role="status" data-testid="history-reprinted">
                                  <Icon name="check" size={24} /> {t('history.reprinted', { orderRef: reprinted })}
                                </p>
                              )}
                            </RowFeedback>
                          )}
                        </td>
                      </tr>
                    )}
                  </Fragment>
                );
              })}
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
      {voiding && (
        <VoidDialog
          orderRef={voiding.orderRef ?? voiding.barcode ?? voiding.orderId ?? ''}
          bundleId={voiding.bundleId}
          operator={operator}
          live={live}
          onVoid={(request) => {
            const entry = voiding;
            setVoiding(null);
            // The row stays chosen (a search that found only it may find its reprint too), its outcome under it.
            setSelected(entry.id);
            setActedOn(entry.id);
            void runVoid(entry, request);
          }}
          onCancel={() => setVoiding(null)}
        />
      )}
      {reprinting && (
        <ReasonDialog
          orderRef={reprinting.orderRef ?? reprinting.barcode ?? reprinting.orderId ?? ''}
          onChoose={(reason) => {
            const entry = reprinting;
            setReprinting(null);
            // The row stays chosen (a search that found only it may find its reprint too), its outcome under it.
            setSelected(entry.id);
            setActedOn(entry.id);
            void runReprint(entry, reason);
          }}
          onCancel={() => setReprinting(null)}
        />
      )}
    </div>
  );
}

/**
 * What a row's action came to (cancelled, refused, printed again), under the row's buttons where
 * the lead is looking, brought into view when it appears (the table may be scrolled far down).
 */
function RowFeedback({ children }: { children: ReactNode }) {
  return (
    <InView block="center" className="row-feedback" live="polite">
      {children}
    </InView>
  );
}
