import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { UploadPreview, UploadRowView, UploadStatus } from '../../../shared/contract/upload';
import type { StationErrorData } from '../../../shared/errors';
import { CallError } from '../components/CallError';
import { Icon } from '../components/Icon';
import { InView } from '../components/InView';
import { downloadBase64 } from '../journal/download';
import { bytesToBase64 } from '../screens/setup/base64';
import { useAppState, usePreferences, useStores } from '../state/stores-context';
import { useStation } from '../station-context';
import { UploadLabels } from './UploadLabels';
import { fileTooBig, noLocationChosen, uploadCountsWords, uploadRowWhy } from './upload-words';

/** Files the screen sends as bytes (the web host's message limit; the CLI reads larger ones from disk). */
const maxUploadBytes = 20 * 1024 * 1024;

/**
 * Spreadsheet upload at shift start: choose the file and the locations, read the preview (ready,
 * with errors and why, skipped and why), then create in the background with progress, pause,
 * resume and cancel, and take the report and the labels.
 */
export function UploadPanel() {
  const { t } = useTranslation();
  const id = useId();
  const station = useStation();
  const stores = useStores();
  const printers = useAppState((state) => state.printers);
  // Kept with the bench's preferences: the same company's locations, day after day.
  const locations = usePreferences((state) => state.uploadLocations);
  const setLocations = (text: string) => stores.preferences.getState().setUploadLocations(text);
  const [preview, setPreview] = useState<UploadPreview | null>(null);
  const [status, setStatus] = useState<UploadStatus | null>(null);
  // The lead's choice for the labels: a printer's id, 'none', or null while not chosen yet.
  const [printChoice, setPrintChoice] = useState<string | null>(null);
  const [error, setError] = useState<StationErrorData | null>(null);
  const [busy, setBusy] = useState(false);
  // Once the upload is done: every row not created, with why (the preview only knew the local checks).
  const [problems, setProblems] = useState<{ uploadId: string; rows: UploadRowView[]; rowsOmitted: number } | null>(null);
  // Rows a second as seen here, from the press of Start (or the first progress this page saw of a
  // run already going) to the last progress: the pace over the whole upload, not a window that
  // reads 0 once it is done, and shown too for an upload done within a moment.
  const pace = useRef<{ uploadId: string; at: number; processed: number } | null>(null);
  const [rowsPerSecond, setRowsPerSecond] = useState<number | null>(null);

  useEffect(() => {
    if (!status || status.state === 'previewed') return;
    const now = Date.now();
    const start = pace.current;
    if (!start || start.uploadId !== status.uploadId) {
      pace.current = { uploadId: status.uploadId, at: now, processed: status.processed };
      setRowsPerSecond(null);
      return;
    }
    const seconds = (now - start.at) / 1000;
    const done = status.result !== null;
    if ((seconds >= 0.2 || done) && seconds > 0 && status.processed > start.processed) setRowsPerSecond((status.processed - start.processed) / seconds);
  }, [status]);

  const finishedId = status && status.result !== null && (status.state === 'finished' || status.state === 'cancelled') ? status.uploadId : null;
  useEffect(() => {
    if (finishedId === null) return;
    void station['upload.problems']({ uploadId: finishedId }).then((result) => {
      if (result.ok) setProblems({ uploadId: finishedId, ...result.value });
    });
  }, [station, finishedId]);

  useEffect(
    () =>
      station.on('upload.progress', (event) => {
        setStatus((current) => (current && current.uploadId === event.uploadId ? event : current));
      }),
    [station],
  );

  // An upload left paused or interrupted (a restart) is offered again.
  useEffect(() => {
    void station['upload.status']({}).then((result) => {
      if (result.ok && result.value && (result.value.state === 'running' || result.value.state === 'paused')) setStatus(result.value);
    });
  }, [station]);

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setError(null);
    setPreview(null);
    setProblems(null);
    setStatus(null);
    setPrintChoice(null);
    if (file.size > maxUploadBytes) {
      setError(fileTooBig(file.name, file.size, maxUploadBytes));
      return;
    }
    const chosen = locations
      .split(/[\s,;]+/)
      .map((location) => location.trim())
      .filter((location) => location !== '');
    if (chosen.length === 0) {
      setError(noLocationChosen());
      return;
    }
    setBusy(true);
    const base64 = bytesToBase64(new Uint8Array(await file.arrayBuffer()));
    const result = await station['upload.prepare']({ source: { kind: 'content', fileName: file.name, base64 }, locations: chosen });
    setBusy(false);
    if (result.ok) {
      setPreview(result.value);
      setStatus(result.value.status);
    } else setError(result.error);
  };

  const act = async (action: 'start' | 'pause' | 'cancel') => {
    if (!status) return;
    setError(null);
    if (action === 'start') {
      pace.current = { uploadId: status.uploadId, at: Date.now(), processed: status.processed };
      setRowsPerSecond(null);
    }
    const result =
      action === 'start'
        ? await station['upload.start']({ uploadId: status.uploadId, ...(printChoice && printChoice !== 'none' ? { printerId: printChoice } : {}) })
        : await station[`upload.${action}`]({ uploadId: status.uploadId });
    if (result.ok) setStatus(result.value);
    else setError(result.error);
  };

  const download = async (what: 'report' | 'labels') => {
    if (!status) return;
    const result = await station[`upload.${what}`]({ uploadId: status.uploadId });
    if (!result.ok) return setError(result.error);
    downloadBase64(result.value.fileName, result.value.base64, what === 'report' ? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' : 'application/pdf');
  };

  const shownRows = problems && status && problems.uploadId === status.uploadId ? problems : preview && status && preview.status.uploadId === status.uploadId ? preview : null;
  // Left running by a station that stopped (a restart): nothing sends its rows until it is resumed.
  const interrupted = status?.state === 'running' && !status.runnerHere;
  const canPrint = printers !== null && printers.length > 0;
  // Printing the labels is a choice made each time, never a default nobody saw.
  const choiceMissing = status?.state === 'previewed' && canPrint && printChoice === null;

  return (
    <section className="card" aria-labelledby={`${id}-title`} data-testid="upload-panel">
      <h2 id={`${id}-title`}>{t('upload.title')}</h2>
      <p className="small muted">{t('upload.intro')}</p>
      <p className="small" data-testid="upload-purpose">
        {t('upload.purpose')}
      </p>
      <div className="small" data-testid="upload-columns">
        <p>
          <strong>{t('upload.columnsTitle')}</strong> {t('upload.columnsRequired')}
        </p>
        <p>{t('upload.columnsOptional')}</p>
      </div>
      <label className="form-field">
        <span>{t('upload.locations')}</span>
        <input type="text" value={locations} onChange={(event) => setLocations(event.target.value)} placeholder="1101, 1102" data-testid="upload-locations" />
      </label>
      <label htmlFor={id} className="button file-button">
        <Icon name="file" size={28} />
        {t('upload.choose')}
        <input
          id={id}
          className="visually-hidden"
          type="file"
          accept=".csv,.xlsx,.xls,text/csv,application/vnd.ms-excel,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          onChange={(event) => void choose(event)}
          disabled={busy || status?.state === 'running'}
          data-testid="upload-file"
        />
      </label>
      {busy && <p role="status">{t('upload.reading')}</p>}
      <InView>
        <CallError error={error} testId="upload-error" />
      </InView>
      {status && (
        <InView showOn={`${status.uploadId}:${status.state}:${status.result ?? ''}`}>
          <div data-testid="upload-status">
            <p data-testid="upload-counts">
              {status.state === 'previewed'
                ? t('upload.counts', { file: status.fileName, rows: t('upload.rows', { count: status.counts.total }), ready: status.counts.ready, invalid: status.counts.invalid, skipped: status.counts.skipped })
                : t('upload.fileRows', { file: status.fileName, rows: t('upload.rows', { count: status.counts.total }) })}
            </p>
            {status.counts.skipped > 0 && (
              <p className="small" data-testid="upload-skipped">
                {t('upload.skippedWhy', { created: status.skipReasons.createdBefore, unknown: status.skipReasons.unknownBefore, repeated: status.skipReasons.repeatedInFile, elsewhere: status.skipReasons.inProgress })}
              </p>
            )}
            {status.state !== 'previewed' && (
              <div className="progress-block" role="status">
                <progress max={status.processable || 1} value={status.processed} />
                <span data-testid="upload-progress">
                  {t('upload.progressCounts', { processed: status.processed, processable: status.processable, successful: status.successful, failed: status.counts.failed + status.counts.unknown })}
                  {rowsPerSecond !== null && <span data-testid="upload-rate"> — {t('upload.rate', { rate: rowsPerSecond.toFixed(1) })}</span>}
                </span>
              </div>
            )}
            {status.result && (
              <p className={status.result === 'completed' ? 'ok-text' : 'warning-text'} data-testid="upload-result">
                <Icon name={status.result === 'completed' ? 'check' : 'warning'} size={24} />
                {t(`upload.result.${status.result}`)} — {uploadCountsWords(status, t)}
              </p>
            )}
            <UploadLabels status={status} />
            {status.state === 'previewed' && (
              <fieldset className="choice-group upload-print-choice" data-testid="upload-print-choice">
                <legend>{t('upload.printChoice')}</legend>
                {canPrint ? (
                  <>
                    {printers.map((printer) => (
                      <label key={printer.id} className="choice">
                        <input type="radio" name={`${id}-print`} value={printer.id} checked={printChoice === printer.id} onChange={() => setPrintChoice(printer.id)} data-testid={`upload-print-${printer.id}`} />
                        <span>{t('upload.printOnPrinter', { printer: printer.name })}</span>
                      </label>
                    ))}
                    <label className="choice">
                      <input type="radio" name={`${id}-print`} value="none" checked={printChoice === 'none'} onChange={() => setPrintChoice('none')} data-testid="upload-print-none" />
                      <span>{t('upload.noPrint')}</span>
                    </label>
                  </>
                ) : (
                  <p className="small muted">{t('upload.noPrinter')}</p>
                )}
                {choiceMissing && (
                  <p className="small" id={`${id}-choose`} data-testid="upload-choose-hint">
                    {t('upload.chooseHint')}
                  </p>
                )}
              </fieldset>
            )}
            <div className="button-row">
              {(status.state === 'previewed' || status.state === 'paused' || interrupted) && (
                <>
                  <button
                    type="button"
                    className="button primary"
                    onClick={() => void act('start')}
                    disabled={choiceMissing}
                    aria-describedby={choiceMissing ? `${id}-choose` : undefined}
                    data-testid="upload-start"
                  >
                    {status.state === 'previewed' ? t('upload.start', { count: status.counts.ready }) : t('upload.resume')}
                  </button>
                </>
              )}
              {status.state === 'running' && !interrupted && (
                <button type="button" className="button" onClick={() => void act('pause')} data-testid="upload-pause">
                  {t('upload.pause')}
                </button>
              )}
              {(status.state === 'running' || status.state === 'paused' || status.state === 'previewed') && (
                <button type="button" className="button" onClick={() => void act('cancel')} data-testid="upload-cancel">
                  {t('upload.cancel')}
                </button>
              )}
              {(status.state === 'finished' || status.state === 'cancelled') && (
                <>
                  <button type="button" className="button" onClick={() => void download('report')} data-testid="upload-report">
                    {t('upload.report')}
                  </button>
                  {status.successful > 0 && (
                    <button type="button" className="button" onClick={() => void download('labels')} data-testid="upload-labels">
                      {t('upload.labels')}
                    </button>
                  )}
                </>
              )}
            </div>
            {shownRows && shownRows.rows.length > 0 && (
              <table className="table small" data-testid="upload-rows">
                <caption>{t('upload.notReady')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('upload.row')}</th>
                    <th scope="col">orderRef</th>
                    <th scope="col">{t('upload.why')}</th>
                  </tr>
                </thead>
                <tbody>
                  {shownRows.rows.map((row) => (
                    <tr key={row.row} data-state={row.state}>
                      <td>{row.row}</td>
                      <td>{row.orderRef ?? ''}</td>
                      <td>{uploadRowWhy(row, t)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            {shownRows && shownRows.rowsOmitted > 0 && <p className="small muted">{t('upload.rowsOmitted', { count: shownRows.rowsOmitted })}</p>}
          </div>
        </InView>
      )}
    </section>
  );
}
