import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PauseReasonData } from '../../../../shared/contract/printing';
import { CallError } from '../../components/CallError';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Icon } from '../../components/Icon';
import { downloadText } from '../../journal/download';
import { runCsv } from '../../journal/journal-csv';
import { reasonWords, skippedWords } from '../../journal/reason-words';
import { bundlesDone, minutesAndSeconds, secondsLeft } from '../../shift/run-math';
import { useAppState, useShiftState, useStores } from '../../state/stores-context';

/** The run under way or just over: progress, pause and resume, labels to decide, and the summary. */
export function RunPanel() {
  const { t, i18n } = useTranslation();
  const stores = useStores();
  const shift = stores.shift.getState();
  const run = useShiftState((state) => state.run);
  const progress = useShiftState((state) => state.progress);
  const samples = useShiftState((state) => state.samples);
  const entries = useShiftState((state) => state.entries);
  const busy = useShiftState((state) => state.busy);
  const error = useShiftState((state) => state.error);
  const operator = useAppState((state) => state.settings?.operator ?? '');
  const [confirmCancel, setConfirmCancel] = useState(false);
  const title = useRef<HTMLHeadingElement>(null);
  const runId = run?.runId;
  // A new run on screen: its title takes the focus, so the view starts at the progress.
  useEffect(() => title.current?.focus(), [runId]);
  if (!run) return null;

  // The newer of the last progress event and the last summary says where the run is.
  const latest = progress && progress.runId === run.runId && Date.parse(progress.at) >= Date.parse(run.updatedAt) ? progress : null;
  const state = latest?.state ?? run.state;
  const pauseReason = latest ? latest.pauseReason : run.pauseReason;
  const total = latest?.total ?? run.counts.total;
  const done = latest?.done ?? run.counts.printed + run.counts.sent + run.counts.uncertain;
  const over = state === 'finished' || state === 'cancelled';
  const left = state === 'running' ? secondsLeft(samples, total) : null;
  const bundleCount = run.bundles.length;
  const uncertain = entries.filter((entry) => entry.state === 'uncertain');
  const failed = entries.filter((entry) => entry.state === 'failed');
  const twice = entries.filter((entry) => entry.secondCopy !== null);
  const counts = run.counts;

  return (
    <section className={`card run-panel run-${state}`} aria-labelledby="run-title" data-testid="run-panel" data-state={state}>
      <h2 id="run-title" ref={title} tabIndex={-1}>
        <Icon name={over ? (counts.failed + counts.uncertain > 0 ? 'warning' : 'check') : state === 'paused' ? 'pause' : 'printer'} size={32} />
        {t(`shift.states.${state}`)} — {t('shift.runOn', { count: bundleCount, printer: run.printerName ?? run.printerId })}
      </h2>

      {state === 'paused' && pauseReason && <PauseBanner reason={pauseReason} />}

      <div className="run-progress" role="group" aria-label={t('shift.progress')}>
        <progress max={Math.max(total, 1)} value={done} data-testid="run-progress" />
        <p className="run-figures">
          <strong data-testid="run-labels">{t('shift.labelsDone', { done, total })}</strong>
          <span data-testid="run-bundles">{t('shift.bundlesDone', { done: bundlesDone(run.bundles, done, run.reverse), total: bundleCount })}</span>
          {left !== null && left > 0 && <TimeLeft seconds={left} />}
        </p>
      </div>

      {!over && (
        <div className="button-row">
          {state === 'running' ? (
            <button type="button" className="button button-large" onClick={() => void shift.pause()} disabled={busy} data-testid="run-pause">
              <Icon name="pause" size={28} />
              {t('shift.pause')}
            </button>
          ) : (
            <button type="button" className="button button-primary button-large" onClick={() => void shift.resume()} disabled={busy} data-testid="run-resume">
              <Icon name="printer" size={28} />
              {t('shift.resume')}
            </button>
          )}
          <button type="button" className="button button-large" onClick={() => setConfirmCancel(true)} disabled={busy} data-testid="run-cancel">
            <Icon name="stop" size={28} />
            {t('shift.cancel')}
          </button>
        </div>
      )}
      <CallError error={error} />

      {uncertain.length > 0 && (
        <div className="subsection" data-testid="run-uncertain">
          <h3>
            <Icon name="warning" size={24} /> {t('shift.uncertainTitle', { count: uncertain.length })}
          </h3>
          <p className="small">{t('shift.uncertainHint')}</p>
          <ul className="plain-list">
            {uncertain.map((entry) => (
              <li key={entry.id} className="list-row">
                <span>
                  <strong>{entry.orderRef ?? entry.barcode ?? entry.orderId}</strong> {entry.reason && <span className="small muted">— {reasonWords(entry.reason, t)}</span>}
                </span>
                <span className="button-row">
                  <button type="button" className="button" onClick={() => void shift.decide(entry.id, 'printed', operator)} disabled={busy}>
                    {t('shift.cameOut')}
                  </button>
                  <button type="button" className="button" onClick={() => void shift.decide(entry.id, 'print-again', operator)} disabled={busy}>
                    {t('shift.printAgain')}
                  </button>
                </span>
              </li>
            ))}
          </ul>
        </div>
      )}

      {twice.length > 0 && (
        <div className="subsection" data-testid="run-second-copies">
          <h3>
            <Icon name="warning" size={24} /> {t('shift.secondCopyTitle', { count: twice.length })}
          </h3>
          <p className="small">{t('shift.secondCopyHint')}</p>
          <ul className="plain-list">
            {twice.map((entry) => (
              <li key={entry.id} className="list-row">
                <span>
                  <strong>{entry.orderRef ?? entry.barcode ?? entry.orderId}</strong>{' '}
                  {entry.secondCopy && (
                    <span className="small muted">— {t(`history.secondCopy.${entry.secondCopy.certainty}`, { fault: t(`history.secondCopyFault.${entry.secondCopy.fault}`) })}</span>
                  )}
                </span>
              </li>
            ))}
          </ul>
        </div>
      )}

      {over && (
        <div className="subsection run-summary" data-testid="run-summary">
          <h3>{t('shift.summary')}</h3>
          <dl className="facts">
            <dt>{t('shift.printed')}</dt>
            <dd data-testid="summary-printed">{counts.printed + counts.sent}</dd>
            <dt>{t('shift.failed')}</dt>
            <dd data-testid="summary-failed">{counts.failed}</dd>
            <dt>{t('shift.uncertain')}</dt>
            <dd data-testid="summary-uncertain">{counts.uncertain}</dd>
            <dt>{t('shift.skipped')}</dt>
            <dd data-testid="summary-skipped">{run.skipped.length}</dd>
          </dl>
          <div className="button-row">
            {counts.failed > 0 && (
              <button type="button" className="button button-primary" onClick={() => void shift.retryFailed()} disabled={busy} data-testid="run-retry">
                {t('shift.retryFailed', { count: counts.failed })}
              </button>
            )}
            <button type="button" className="button" onClick={() => downloadText(`run-${run.runId}.csv`, runCsv(entries, run.skipped, run.environment))} disabled={entries.length === 0 && run.skipped.length === 0} data-testid="run-export">
              <Icon name="file" size={24} />
              {t('shift.export')}
            </button>
            <button type="button" className="button" onClick={() => shift.close()} data-testid="run-close">
              {t('shift.newRun')}
            </button>
          </div>
        </div>
      )}

      {failed.length > 0 && (
        <div className="subsection">
          <h3>{t('shift.failedTitle')}</h3>
          <ul className="plain-list small">
            {failed.map((entry) => (
              <li key={entry.id}>
                <Icon name="stop" size={20} /> <strong>{entry.orderRef ?? entry.barcode ?? entry.orderId}</strong> — {entry.reason ? reasonWords(entry.reason, t) : ''}
              </li>
            ))}
          </ul>
        </div>
      )}

      {run.skipped.length > 0 && (
        <details className="subsection" data-testid="run-skipped">
          <summary>{t('shift.skippedTitle', { count: run.skipped.length })}</summary>
          <ul className="plain-list small">
            {run.skipped.map((skipped) => {
              const { subject, why } = skippedWords(skipped, t, i18n.language);
              return (
                <li key={`${skipped.bundleId}-${skipped.orderId}`} data-testid="run-skipped-item">
                  <strong>{subject}</strong> — {why}
                </li>
              );
            })}
          </ul>
        </details>
      )}

      {confirmCancel && (
        <ConfirmDialog
          title={t('shift.cancelTitle')}
          confirmLabel={t('shift.cancel')}
          cancelLabel={t('shift.keepGoing')}
          danger
          onConfirm={() => {
            setConfirmCancel(false);
            void shift.cancel();
          }}
          onCancel={() => setConfirmCancel(false)}
        >
          <p>{t('shift.cancelBody')}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}

/** Why the run stopped and what to do: a printer fault clears by itself once fixed. */
function PauseBanner({ reason }: { reason: PauseReasonData }) {
  const { t } = useTranslation();
  const fromPrinter = reason.by === 'printer';
  return (
    <div className={fromPrinter ? 'pause-banner tone-danger' : 'pause-banner tone-warning'} role="alert" data-testid="run-pause-reason">
      <Icon name={fromPrinter ? 'stop' : 'pause'} size={48} />
      <div>
        <p className="pause-title">
          {reason.by === 'user' ? (reason.lead ? t('shift.pausedByLead', { operator: reason.lead.operator, bench: reason.lead.benchName }) : t('shift.pausedByUser')) : t(`errors.${reason.code}.title`)}
        </p>
        {reason.by !== 'user' && <p className="pause-action">{t(`errors.${reason.code}.action`)}</p>}
        <p className="small">{t(`shift.pausedBy.${reason.by}`)}</p>
      </div>
    </div>
  );
}

function TimeLeft({ seconds }: { seconds: number }) {
  const { t } = useTranslation();
  const parts = minutesAndSeconds(seconds);
  return <span data-testid="run-time-left">{parts.minutes > 0 ? t('shift.timeLeft', parts) : t('shift.timeLeftSeconds', parts)}</span>;
}
