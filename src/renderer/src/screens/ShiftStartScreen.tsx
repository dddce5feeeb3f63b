import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CallError } from '../components/CallError';
import { Icon } from '../components/Icon';
import { formatDateTime } from '../i18n/format';
import { useAppState, useShiftState, useStores } from '../state/stores-context';
import { RunPanel } from './shift/RunPanel';
import { ScreenHeading } from './ScreenHeading';

/** Shift start: pick today's bundles (scan their slips or type their ids), choose the printer, print them all in one run. */
export default function ShiftStartScreen() {
  const { t } = useTranslation();
  const stores = useStores();
  const run = useShiftState((state) => state.run);
  useEffect(() => {
    void stores.shift.getState().loadUnfinished();
  }, [stores]);
  return (
    <div className="screen">
      <ScreenHeading>{t('shift.title')}</ScreenHeading>
      {run ? <RunPanel /> : <ChooseBundles />}
    </div>
  );
}

function ChooseBundles() {
  const { t, i18n } = useTranslation();
  const id = useId();
  const stores = useStores();
  const shift = stores.shift.getState();
  const selected = useShiftState((state) => state.selected);
  const printerId = useShiftState((state) => state.printerId);
  const reverse = useShiftState((state) => state.reverse);
  const busy = useShiftState((state) => state.busy);
  const error = useShiftState((state) => state.error);
  const unfinished = useShiftState((state) => state.unfinished);
  const printers = useAppState((state) => state.printers);
  const [typed, setTyped] = useState('');

  const add = (event: FormEvent) => {
    event.preventDefault();
    shift.addBundles(typed);
    setTyped('');
  };

  return (
    <>
      <p className="lead">{t('shift.intro')}</p>
      {unfinished.length > 0 && (
        <section className="card" aria-labelledby={`${id}-unfinished`} data-testid="unfinished-runs">
          <h2 id={`${id}-unfinished`}>
            <Icon name="warning" size={28} /> {t('shift.unfinished')}
          </h2>
          <ul className="plain-list">
            {unfinished.map((run) => (
              <li key={run.runId} className="list-row">
                <span>
                  {t('shift.unfinishedRun', { done: run.counts.printed + run.counts.sent, total: run.counts.total, printer: run.printerName ?? run.printerId, time: formatDateTime(run.createdAt, i18n.language) })}
                </span>
                <button type="button" className="button" onClick={() => void shift.takeUp(run)}>
                  {t('shift.takeUp')}
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
      <section className="card" aria-labelledby={`${id}-bundles`}>
        <h2 id={`${id}-bundles`}>{t('shift.bundles')}</h2>
        <form onSubmit={add} className="field">
          <label htmlFor={`${id}-typed`}>{t('shift.addLabel')}</label>
          <div className="input-row">
            <input id={`${id}-typed`} type="text" value={typed} spellCheck={false} autoComplete="off" onChange={(event) => setTyped(event.target.value)} placeholder="BND-…" data-testid="bundle-input" />
            <button type="submit" className="button" disabled={typed.trim() === ''}>
              {t('shift.add')}
            </button>
          </div>
          <p className="small muted">{t('shift.scanHint')}</p>
        </form>
        {selected.length === 0 ? (
          <p className="muted" data-testid="bundles-none">
            {t('shift.noneChosen')}
          </p>
        ) : (
          <>
            <p data-testid="bundles-count">{t('shift.chosen', { count: selected.length })}</p>
            <ol className="bundle-list" data-testid="bundle-list">
              {selected.map((bundleId) => (
                <li key={bundleId}>
                  <span className="mono">{bundleId}</span>
                  <button type="button" className="button button-quiet" onClick={() => shift.removeBundle(bundleId)} aria-label={t('shift.removeBundle', { bundleId })}>
                    {t('shift.remove')}
                  </button>
                </li>
              ))}
            </ol>
            <button type="button" className="button" onClick={() => shift.clearBundles()}>
              {t('shift.clear')}
            </button>
          </>
        )}
      </section>
      <section className="card" aria-labelledby={`${id}-print`}>
        <h2 id={`${id}-print`}>{t('shift.printTitle')}</h2>
        <div className="form-grid">
          <div className="field">
            <label htmlFor={`${id}-printer`}>{t('shift.printer')}</label>
            <select id={`${id}-printer`} value={printerId ?? ''} onChange={(event) => shift.setPrinter(event.target.value || null)} data-testid="run-printer">
              <option value="">{t('shift.defaultPrinter')}</option>
              {printers?.map((printer) => (
                <option key={printer.id} value={printer.id}>
                  {printer.name}
                  {printer.defaultForBundles ? ` (${t('shift.defaultMark')})` : ''}
                </option>
              ))}
            </select>
          </div>
          <label className="checkbox">
            <input type="checkbox" checked={reverse} onChange={(event) => shift.setReverse(event.target.checked)} />
            {t('shift.reverse')}
          </label>
        </div>
        <button type="button" className="button button-primary button-large" disabled={busy || selected.length === 0} onClick={() => void shift.start()} data-testid="run-start">
          <Icon name="printer" size={32} />
          {t('shift.start', { count: selected.length })}
        </button>
        <CallError error={error} testId="run-error" />
      </section>
    </>
  );
}
