import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { CallOutput, EventPayload } from '../../../../shared/contract';
import { maxManifestUploadBytes } from '../../../../shared/contract/imports';
import type { StationErrorData } from '../../../../shared/errors';
import { CallError } from '../../components/CallError';
import { InView } from '../../components/InView';
import { fileTooBig } from '../../shift/upload-words';
import { Icon } from '../../components/Icon';
import { useStation } from '../../station-context';
import { bytesToBase64 } from './base64';
import { rowProblemWords } from './row-problem-words';

type ImportReport = CallOutput<'imports.manifest'>;
type ImportProgress = EventPayload<'imports.progress'>;

/** Today's manifest (CSV or XLSX) into the order index, with progress and the rows that failed. */
export function ImportSection() {
  const { t } = useTranslation();
  const id = useId();
  const station = useStation();
  const [progress, setProgress] = useState<ImportProgress | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  const [error, setError] = useState<StationErrorData | null>(null);
  const [busy, setBusy] = useState(false);
  const importId = useRef<string | null>(null);

  useEffect(
    () =>
      station.on('imports.progress', (event) => {
        if (event.importId === importId.current) setProgress(event);
      }),
    [station],
  );

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setReport(null);
    setError(null);
    setProgress(null);
    if (file.size > maxManifestUploadBytes) {
      setError(fileTooBig(file.name, file.size, maxManifestUploadBytes));
      return;
    }
    setBusy(true);
    const current = `import-${Date.now().toString(36)}`;
    importId.current = current;
    const base64 = bytesToBase64(new Uint8Array(await file.arrayBuffer()));
    const result = await station['imports.manifest']({ source: { kind: 'content', fileName: file.name, base64 }, importId: current });
    setBusy(false);
    if (result.ok) setReport(result.value);
    else setError(result.error);
  };

  return (
    <section className="card" aria-labelledby={`${id}-title`} data-testid="import-section">
      <h2 id={`${id}-title`}>{t('setup.import')}</h2>
      <p className="small muted">{t('setup.importIntro')}</p>
      <p className="small" data-testid="import-purpose">
        {t('setup.importPurpose')}
      </p>
      <label htmlFor={id} className="button file-button">
        <Icon name="file" size={28} />
        {t('setup.importChoose')}
        <input id={id} className="visually-hidden" type="file" accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" onChange={(event) => void choose(event)} disabled={busy} data-testid="import-file" />
      </label>
      {busy && (
        <div className="progress-block" role="status">
          <progress max={progress?.totalBytes || 1} value={progress?.bytesRead ?? 0} />
          <span>{t('setup.importProgress', { rows: t('upload.rows', { count: progress?.rowsRead ?? 0 }), failed: progress?.failed ?? 0 })}</span>
        </div>
      )}
      <InView>
        <CallError error={error} testId="import-error" />
        {report && (
          <div className="import-report" data-testid="import-report" data-failed={report.failed}>
            <p className={report.failed > 0 ? 'warning-text' : 'ok-text'}>
              <Icon name={report.failed > 0 ? 'warning' : 'check'} size={24} />
              {t('setup.importDone', { file: report.fileName, rows: t('upload.rows', { count: report.rowsRead }), inserted: report.inserted, updated: report.updated, failed: report.failed })}
            </p>
            {report.errors.length > 0 && (
              <table className="table small">
                <caption>{t('setup.importErrors')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('setup.importRow')}</th>
                    <th scope="col">{t('setup.importProblem')}</th>
                  </tr>
                </thead>
                <tbody>
                  {report.errors.map((rowError) => (
                    <tr key={`${rowError.row}-${rowError.message}`}>
                      <td>{rowError.row}</td>
                      <td>{rowProblemWords(rowError, t)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            {report.errorsTruncated && <p className="small muted">{t('setup.importErrorsTruncated')}</p>}
          </div>
        )}
      </InView>
    </section>
  );
}

