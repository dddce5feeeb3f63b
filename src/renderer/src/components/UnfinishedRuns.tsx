import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { RunSummaryData } from '../../../shared/contract/printing';
import { formatDateTime } from '../i18n/format';
import { useAppState, useShiftState, useStores } from '../state/stores-context';
import { Icon } from './Icon';

/** One unfinished run in words, with Resume (when paused) and Show. */
function UnfinishedRunRow({ run, onResume, onShow }: { run: RunSummaryData; onResume(): void; onShow(): void }) {
  const { t, i18n } = useTranslation();
  return (
    <li className="list-row" data-testid="unfinished-run">
      <span>
        {t('shift.unfinishedRun', {
          done: run.counts.printed + run.counts.sent,
          total: run.counts.total,
          printer: run.printerName ?? run.printerId,
          time: formatDateTime(run.createdAt, i18n.language),
        })}
        {run.state === 'running' && <span className="small"> · {t('shift.states.running')}</span>}
      </span>
      <span className="button-row">
        {run.state === 'paused' && (
          <button type="button" className="button button-primary" onClick={onResume} data-testid="unfinished-resume">
            <Icon name="printer" size={24} />
            {t('shift.resume')}
          </button>
        )}
        <button type="button" className="button" onClick={onShow} data-testid="unfinished-show">
          {t('shift.takeUp')}
        </button>
      </span>
    </li>
  );
}

/** The runs the station could carry on with, on the Shift start screen. */
export function UnfinishedRuns() {
  const { t } = useTranslation();
  const id = useId();
  const stores = useStores();
  const unfinished = useShiftState((state) => state.unfinished);
  if (unfinished.length === 0) return null;
  return (
    <section className="card" aria-labelledby={`${id}-unfinished`} data-testid="unfinished-runs">
      <h2 id={`${id}-unfinished`}>
        <Icon name="warning" size={28} /> {t('shift.unfinished')}
      </h2>
      <ul className="plain-list">
        {unfinished.map((run) => (
          <UnfinishedRunRow
            key={run.runId}
            run={run}
            onResume={() => void stores.shift.getState().resumeUnfinished(run)}
            onShow={() => void stores.shift.getState().takeUp(run)}
          />
        ))}
      </ul>
    </section>
  );
}

/**
 * At start-up, on any other screen: a run that was interrupted (the station closed mid-run, or
 * the page reloaded) is offered to carry on, from the first label not yet printed.
 */
export function UnfinishedRunOffer() {
  const { t } = useTranslation();
  const stores = useStores();
  const unfinished = useShiftState((state) => state.unfinished);
  const dismissed = useShiftState((state) => state.offerDismissed);
  const runOnScreen = useShiftState((state) => state.run);
  const screen = useAppState((state) => state.screen);
  if (dismissed || runOnScreen || screen === 'shift' || unfinished.length === 0) return null;
  const open = (take: (run: RunSummaryData) => Promise<void>, run: RunSummaryData) => {
    stores.app.getState().navigate('shift');
    void take(run);
  };
  return (
    <section className="offer-banner" role="region" aria-labelledby="offer-title" data-testid="unfinished-offer">
      <Icon name="warning" size={36} />
      <div className="offer-body">
        <h2 id="offer-title">{t('shift.offerTitle', { count: unfinished.length })}</h2>
        <ul className="plain-list">
          {unfinished.map((run) => (
            <UnfinishedRunRow
              key={run.runId}
              run={run}
              onResume={() => open(stores.shift.getState().resumeUnfinished, run)}
              onShow={() => open(stores.shift.getState().takeUp, run)}
            />
          ))}
        </ul>
      </div>
      <button type="button" className="button" onClick={() => stores.shift.getState().dismissOffer()} data-testid="unfinished-later">
        {t('shift.later')}
      </button>
    </section>
  );
}
