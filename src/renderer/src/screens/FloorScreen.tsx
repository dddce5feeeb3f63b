import { useMemo, useState } from 'react';
import { stationNameWords } from '../i18n/station-name';
import { useTranslation } from 'react-i18next';
import type { FloorBenchData, FloorCommandData, FloorFault } from '../../../shared/contract/floor';
import { benchConcern, faultFilters, filterFloor, orderFloor, type FloorFilter } from '../../../shared/floor/floor-order';
import type { StationErrorData } from '../../../shared/errors';
import { CallError } from '../components/CallError';
import { Icon } from '../components/Icon';
import { BenchRow, type FloorActionRequest } from '../floor/BenchRow';
import { FloorActionDialog } from '../floor/FloorActionDialog';
import { useFloor } from '../floor/use-floor';
import { formatClock } from '../i18n/format';
import { useStation } from '../station-context';
import { ScreenHeading } from './ScreenHeading';

/**
 * The lead's floor: every bench of the warehouse, the ones that need the lead first, live as
 * benches report; filters by fault, run and operator; pause, resume or cancel a run, settle an
 * uncertain label, or send a shift-start run to a bench, each after a confirmation.
 */
export default function FloorScreen() {
  const { t, i18n } = useTranslation();
  const station = useStation();
  const { floor, error, reload } = useFloor(station);
  const [filter, setFilter] = useState<FloorFilter>({});
  const [asking, setAsking] = useState<FloorActionRequest | null>(null);
  const [answer, setAnswer] = useState<{ command: FloorCommandData } | { error: StationErrorData } | null>(null);
  const clock = (iso: string) => formatClock(iso, i18n.language);
  const benches = useMemo(() => (floor ? orderFloor(floor.benches) : []), [floor]);
  const shown = useMemo(() => filterFloor(benches, filter), [benches, filter]);
  const needing = benches.filter((bench) => !['fine', 'stopped'].includes(benchConcern(bench))).length;

  const done = (result: { command: FloorCommandData } | { error: StationErrorData }) => {
    setAsking(null);
    setAnswer(result);
    reload();
  };

  return (
    <div className="screen floor-screen">
      <ScreenHeading>{t('floor.title')}</ScreenHeading>
      {error && <CallError error={error} testId="floor-error" />}
      {floor?.mode === 'local' && (
        <p className="panel-note" data-testid="floor-local">
          <Icon name="info" size={24} /> {t('floor.localNote')}
        </p>
      )}
      {floor && (
        <p className="lead" data-testid="floor-summary">
          {t('floor.summary', { count: benches.length })} · {t('floor.needing', { count: needing })}
        </p>
      )}
      {floor?.mode === 'warehouse' && (
        <div className="search-bar floor-filters" role="search">
          <label className="field">
            <span className="field-label">{t('floor.filter.fault')}</span>
            <select value={filter.fault ?? ''} onChange={(event) => setFilter({ ...filter, fault: (event.target.value || undefined) as FloorFilter['fault'] })} data-testid="floor-filter-fault">
              <option value="">{t('floor.filter.all')}</option>
              {faultFilters.map((fault) => (
                <option key={fault} value={fault}>
                  {fault === 'any' ? t('floor.filter.any') : fault === 'silent' ? t('floor.filter.silent') : t(`floor.fault.${fault as FloorFault}`)}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span className="field-label">{t('floor.filter.run')}</span>
            <input value={filter.run ?? ''} onChange={(event) => setFilter({ ...filter, run: event.target.value })} data-testid="floor-filter-run" />
          </label>
          <label className="field">
            <span className="field-label">{t('floor.filter.operator')}</span>
            <input value={filter.operator ?? ''} onChange={(event) => setFilter({ ...filter, operator: event.target.value })} data-testid="floor-filter-operator" />
          </label>
        </div>
      )}
      {answer && <ActionAnswer answer={answer} clock={clock} />}
      {floor && shown.length === 0 && <p className="panel-note">{benches.length === 0 ? t('floor.empty') : t('floor.noMatch')}</p>}
      <ul className="floor-list" data-testid="floor-list" aria-live="polite">
        {shown.map((bench: FloorBenchData) => (
          <BenchRow key={bench.benchId} bench={bench} clock={clock} onAction={(request) => setAsking(request)} />
        ))}
      </ul>
      {asking && <FloorActionDialog request={asking} onDone={done} onCancel={() => setAsking(null)} />}
    </div>
  );
}

function ActionAnswer({ answer, clock }: { answer: { command: FloorCommandData } | { error: StationErrorData }; clock: (iso: string) => string }) {
  const { t } = useTranslation();
  if ('error' in answer) return <CallError error={answer.error} testId="floor-action-error" />;
  const { command } = answer;
  return (
    <p className={command.state === 'done' ? 'panel-note tone-text-success' : 'panel-note'} role="status" data-testid="floor-action-answer">
      {command.state === 'done'
        ? t(`floor.answer.done.${command.action}`, { bench: stationNameWords(command.benchName, t), time: clock(command.settledAt ?? command.createdAt) })
        : t('floor.answer.pending', { bench: stationNameWords(command.benchName, t) })}
    </p>
  );
}
