import { useId, useState, type FormEvent } from 'react';
import { stationNameWords } from '../i18n/station-name';
import { useTranslation } from 'react-i18next';
import type { FloorActInput, FloorCommandData } from '../../../shared/contract/floor';
import type { StationErrorData } from '../../../shared/errors';
import { ConfirmDialog, ConfirmDialogShell } from '../components/ConfirmDialog';
import { useStation } from '../station-context';
import type { FloorActionRequest } from './BenchRow';

type Outcome = { command: FloorCommandData } | { error: StationErrorData };

/**
 * The lead confirms an action on another bench. A run or a label is acted on as the lead saw it
 * (the last action on it they saw goes with the request): had another lead acted on it meanwhile,
 * the station says who, and nothing is sent.
 */
export function FloorActionDialog({ request, onDone, onCancel }: { request: FloorActionRequest; onDone(outcome: Outcome): void; onCancel(): void }) {
  const { t } = useTranslation();
  const station = useStation();
  const [busy, setBusy] = useState(false);
  const send = async (input: FloorActInput) => {
    if (busy) return;
    setBusy(true);
    const result = await station['floor.act'](input);
    onDone(result.ok ? { command: result.value } : { error: result.error });
  };
  const bench = stationNameWords(request.bench.stationName, t);

  if (request.kind === 'bundles') return <SendBundles request={request} busy={busy} onSend={(input) => void send(input)} onCancel={onCancel} />;
  // A run or a label, acted on as the lead saw it: the last action on it they saw goes with the request.
  const { action } = request;
  const [input, values]: [FloorActInput, Record<string, string | number>] =
    request.kind === 'run'
      ? [
          { action: request.action, benchId: request.bench.benchId, runId: request.run.runId, seen: request.run.lastAction?.commandId ?? 0 },
          { bench, printer: request.run.printerName ?? request.run.printerId, done: request.run.done, total: request.run.total },
        ]
      : [
          { action: request.action, benchId: request.bench.benchId, entryId: request.label.entryId, seen: request.label.lastAction?.commandId ?? 0 },
          { bench, label: request.label.orderRef ?? request.label.orderId ?? request.label.bundleId ?? String(request.label.entryId), printer: request.label.printerName ?? '?' },
        ];
  return (
    <ConfirmDialog
      title={t(`floor.confirm.${action}.title`, { bench })}
      confirmLabel={t(`floor.action.${action}`)}
      cancelLabel={t('floor.confirm.back')}
      danger={action === 'cancel'}
      onConfirm={() => void send(input)}
      onCancel={onCancel}
    >
      <p>{t(`floor.confirm.${action}.body`, values)}</p>
    </ConfirmDialog>
  );
}

function SendBundles({ request, busy, onSend, onCancel }: { request: Extract<FloorActionRequest, { kind: 'bundles' }>; busy: boolean; onSend(input: FloorActInput): void; onCancel(): void }) {
  const { t } = useTranslation();
  const id = useId();
  const printers = request.bench.printers;
  const [printerId, setPrinterId] = useState(printers.find((printer) => printer.roles.includes('bundles'))?.printerId ?? printers[0]?.printerId ?? '');
  const [typed, setTyped] = useState('');
  const [reverse, setReverse] = useState(false);
  const bundleIds = [...new Set(typed.split(/[\s,;]+/).map((text) => text.trim()).filter(Boolean))];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (bundleIds.length === 0 || !printerId) return;
    onSend({ action: 'send-bundles', benchId: request.bench.benchId, printerId, bundleIds, reverse });
  };
  return (
    <ConfirmDialogShell title={t('floor.confirm.send-bundles.title', { bench: stationNameWords(request.bench.stationName, t) })} onCancel={onCancel}>
      <form onSubmit={submit}>
        <p>{t('floor.confirm.send-bundles.body', { bench: stationNameWords(request.bench.stationName, t) })}</p>
        <label className="field" htmlFor={`${id}-bundles`}>
          <span className="field-label">{t('floor.bundles')}</span>
        </label>
        <textarea id={`${id}-bundles`} rows={3} value={typed} onChange={(event) => setTyped(event.target.value)} data-testid="floor-bundle-ids" />
        <label className="field">
          <span className="field-label">{t('floor.printerFor')}</span>
          <select value={printerId} onChange={(event) => setPrinterId(event.target.value)} data-testid="floor-bundle-printer">
            {printers.map((printer) => (
              <option key={printer.printerId} value={printer.printerId}>
                {printer.name}
              </option>
            ))}
          </select>
        </label>
        <label className="checkbox">
          <input type="checkbox" checked={reverse} onChange={(event) => setReverse(event.target.checked)} /> {t('shift.reverse')}
        </label>
        <div className="button-row">
          <button type="button" className="button" onClick={onCancel} autoFocus>
            {t('floor.confirm.back')}
          </button>
          <button type="submit" className="button button-primary" disabled={busy || bundleIds.length === 0} data-testid="confirm-yes">
            {t('floor.confirm.send-bundles.confirm', { count: bundleIds.length })}
          </button>
        </div>
      </form>
    </ConfirmDialogShell>
  );
}
