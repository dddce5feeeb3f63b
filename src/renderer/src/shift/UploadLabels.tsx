import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RunCounts, RunSummaryData } from '../../../shared/contract/printing';
import type { UploadStatus } from '../../../shared/contract/upload';
import { Icon } from '../components/Icon';
import { useAppState } from '../state/stores-context';
import { useStation } from '../station-context';

interface RunSeen {
  state: RunSummaryData['state'];
  counts: RunCounts;
  printerName: string | null;
}

/** Labels that left the station: sent, printed, or maybe printed. */
const doneOf = (counts: RunCounts) => counts.sent + counts.printed + counts.uncertain;

/**
 * What became of the labels of an upload that was told to print them: sent to the printer as the
 * run goes, then printed (or how many were not), followed through the run's own events.
 */
export function UploadLabels({ status }: { status: UploadStatus }) {
  const { t } = useTranslation();
  const station = useStation();
  const printers = useAppState((state) => state.printers);
  const [run, setRun] = useState<RunSeen | null>(null);
  const runId = status.printRunId;

  useEffect(() => {
    setRun(null);
    if (runId === null) return;
    let current = true;
    void station['printing.run']({ runId }).then((result) => {
      if (current && result.ok) setRun({ state: result.value.run.state, counts: result.value.run.counts, printerName: result.value.run.printerName });
    });
    const offProgress = station.on('printing.progress', (event) => {
      if (event.runId === runId) setRun((seen) => ({ state: event.state, counts: event.counts, printerName: seen?.printerName ?? null }));
    });
    const offFinished = station.on('printing.finished', (summary) => {
      if (summary.runId === runId) setRun({ state: summary.state, counts: summary.counts, printerName: summary.printerName });
    });
    return () => {
      current = false;
      offProgress();
      offFinished();
    };
  }, [station, runId]);

  if (status.printerId === null || status.successful === 0 || status.result === null) return null;
  const printer = run?.printerName ?? printers?.find((each) => each.id === status.printerId)?.name ?? status.printerId;
  if (runId === null) {
    if (status.state !== 'finished') return null;
    return <Line tone="warning" text={t('upload.labelsNotPrinted', { printer })} />;
  }
  if (!run) return null;
  const total = run.counts.total;
  const done = doneOf(run.counts);
  if (run.state === 'running') return <Line tone="working" text={t('upload.labelsSending', { done, total, printer })} />;
  if (run.state === 'paused') return <Line tone="warning" text={t('upload.labelsPaused', { done, total, printer })} />;
  if (run.state === 'cancelled') return <Line tone="warning" text={t('upload.labelsCancelled', { done, total, printer })} />;
  const printed = run.counts.printed + run.counts.sent;
  if (printed === total) return <Line tone="ok" text={t('upload.labelsPrinted', { count: total, printer })} />;
  return <Line tone="warning" text={t('upload.labelsProblems', { printed, total, printer })} />;
}

function Line({ tone, text }: { tone: 'ok' | 'warning' | 'working'; text: string }) {
  return (
    <p className={tone === 'ok' ? 'ok-text' : tone === 'warning' ? 'warning-text' : ''} role="status" data-testid="upload-labels-result" data-tone={tone}>
      <Icon name={tone === 'ok' ? 'check' : tone === 'warning' ? 'warning' : 'printer'} size={24} />
      {text}
    </p>
  );
}
