import { useTranslation } from 'react-i18next';
import { stationNameWords } from '../i18n/station-name';
import type { FloorBenchData, FloorRunData, FloorUncertainData } from '../../../shared/contract/floor';
import { benchConcern } from '../../../shared/floor/floor-order';
import { Icon } from '../components/Icon';
import { benchStateWords, printerWords, runActions, runStateWords } from './floor-words';

/** What a lead asked to do on a bench, before they confirm it. */
export type FloorActionRequest =
  | { kind: 'run'; action: 'pause' | 'resume' | 'cancel'; bench: FloorBenchData; run: FloorRunData }
  | { kind: 'label'; action: 'settle-printed' | 'settle-print-again'; bench: FloorBenchData; label: FloorUncertainData }
  | { kind: 'bundles'; bench: FloorBenchData };

const toneIcon = { danger: 'stop', warning: 'warning', neutral: 'info', success: 'check' } as const;

/** One bench: its state first, then who, its figures, its printers, runs and labels waiting, with the lead's actions. */
export function BenchRow({ bench, clock, onAction }: { bench: FloorBenchData; clock: (iso: string) => string; onAction(request: FloorActionRequest): void }) {
  const { t } = useTranslation();
  const state = benchStateWords(bench, clock);
  const answering = bench.answering === 'yes';
  return (
    <li className={`card floor-bench floor-${state.tone}`} data-testid="floor-bench" data-bench={bench.stationName} data-concern={benchConcern(bench)}>
      <div className="floor-bench-head">
        <h2>
          {stationNameWords(bench.stationName, t)}
          {bench.self && <span className="muted small"> · {t('floor.thisBench')}</span>}
        </h2>
        <span className="floor-facts small">
          <span data-testid="floor-bench-operator">{bench.operator ? t('floor.operator', { name: bench.operator }) : t('floor.nobody')}</span>
          {' · '}
          {t(`environment.${bench.environment}`)}
          {' · '}
          <span data-testid="floor-bench-counts">{t('floor.counts', { today: bench.labelsToday, hour: bench.labelsLastHour, buffer: bench.labelsInBuffer })}</span>
          {' · '}
          {bench.lastScanAt ? t('floor.lastScan', { time: clock(bench.lastScanAt) }) : t('floor.noScan')}
        </span>
        <span className={`state-badge tone-${state.tone}`}>
          <Icon name={toneIcon[state.tone]} size={22} />
          <span data-testid="floor-bench-state">{t(state.key, state.values)}</span>
        </span>
      </div>
      <div className="floor-printers">
        {bench.printers.map((printer) => {
          const words = printerWords(printer, clock);
          return (
            <span key={printer.printerId} data-testid="floor-printer">
              {/* A bench not heard from: its printers as it last told them, said as such. */}
              <Icon name="printer" size={20} /> <strong>{printer.name}</strong>: {answering ? t(words.key, words.values) : t('floor.printer.lastHeard', { state: t(words.key, words.values) })}
              {printer.inBuffer > 0 && <span className="muted"> · {t('floor.inBuffer', { count: printer.inBuffer })}</span>}
            </span>
          );
        })}
        {answering && bench.printers.some((printer) => printer.roles.includes('bundles')) && (
          <button type="button" className="button button-quiet floor-send" onClick={() => onAction({ kind: 'bundles', bench })} data-testid="floor-send-bundles">
            <Icon name="shift" size={20} /> {t('floor.action.send-bundles')}
          </button>
        )}
      </div>
      {bench.runs.map((run) => {
        const words = runStateWords(run, clock);
        return (
          <div key={run.runId} className="list-row floor-run" data-testid="floor-run" data-run={run.runId}>
            <span>
              {t(`floor.run.kind.${run.kind}`)} <span className="mono small">{run.runId.slice(0, 8)}</span> · {run.printerName ?? run.printerId} ·{' '}
              <strong data-testid="floor-run-state">{t(words.key, words.values)}</strong> · {t('floor.run.progress', { done: run.done, total: run.total })}
            </span>
            {answering && (
              <span className="row-actions">
                {runActions(run).map((action) => (
                  <button key={action} type="button" className={action === 'cancel' ? 'button button-danger' : 'button'} onClick={() => onAction({ kind: 'run', action, bench, run })} data-testid={`floor-run-${action}`}>
                    {t(`floor.action.${action}`)}
                  </button>
                ))}
              </span>
            )}
          </div>
        );
      })}
      {bench.uncertain.map((label) => (
        <div key={label.entryId} className="list-row floor-uncertain" data-testid="floor-uncertain">
          <span>
            <Icon name="question" size={20} /> {t('floor.uncertain', { label: label.orderRef ?? label.orderId ?? label.bundleId ?? String(label.entryId), printer: label.printerName ?? '?', time: clock(label.since) })}
          </span>
          {answering && (
            <span className="row-actions">
              <button type="button" className="button" onClick={() => onAction({ kind: 'label', action: 'settle-printed', bench, label })} data-testid="floor-settle-printed">
                {t('floor.action.settle-printed')}
              </button>
              <button type="button" className="button" onClick={() => onAction({ kind: 'label', action: 'settle-print-again', bench, label })} data-testid="floor-settle-print-again">
                {t('floor.action.settle-print-again')}
              </button>
            </span>
          )}
        </div>
      ))}
      {bench.uncertainCount > bench.uncertain.length && <p className="small muted">{t('floor.moreUncertain', { count: bench.uncertainCount - bench.uncertain.length })}</p>}
    </li>
  );
}
