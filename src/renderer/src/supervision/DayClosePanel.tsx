import { useCallback, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { HandoverData } from '../../../shared/contract/supervision';
import { handoverDownloadPath, handoverFileName } from '../../../shared/handover-file';
import { CallError } from '../components/CallError';
import { Icon } from '../components/Icon';
import { useAction } from '../components/use-action';
import { useStation } from '../station-context';
import { useAppState } from '../state/stores-context';

/** Parcels a long handover label on a Zebra holds (main's handover-print.ts). */
const parcelsPerZebraLabel = 20;

/** Starts the browser's download of a file the web host offers (a kiosk has no other way to the file). */
function download(href: string, name: string): void {
  const link = document.createElement('a');
  link.href = href;
  link.download = name;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
}

/**
 * Closes the day: the courier's handover list, kept as a PDF in the station's data folder (and in
 * a browser downloaded at once), printed when asked with what is being sent on screen meanwhile.
 */
export function DayClosePanel() {
  const { t } = useTranslation();
  const id = useId();
  const station = useStation();
  const printers = useAppState((state) => state.printers) ?? [];
  const inBrowser = useAppState((state) => state.info?.host === 'web');
  const [printer, setPrinter] = useState('');
  const [handover, setHandover] = useState<HandoverData | null>(null);
  const close = useCallback(() => station['supervision.dayClose']({}), [station]);
  const [runClose, closeState] = useAction(close, (value) => {
    setHandover(value);
    const name = value.pdfPath ? handoverFileName(value.pdfPath) : null;
    if (inBrowser && name) download(`${handoverDownloadPath}${name}`, name);
  });
  // Counted without a file of its own: the list is kept once, by the printing call.
  const count = useCallback(() => station['supervision.dayClose']({ pdf: false }), [station]);
  const [runCount, countState] = useAction(count, setHandover);
  const print = useCallback((printOn: string) => station['supervision.dayClose']({ printer: printOn }), [station]);
  const [runPrint, printState] = useAction(print, setHandover);
  const printerName = printers.find((candidate) => candidate.id === printer)?.name ?? printer;
  const isZebra = printers.find((candidate) => candidate.id === printer)?.format === 'zpl';

  // The list first (fast, and the screen can say how much is on its way), then the printing.
  const printList = async () => {
    const listed = await runCount();
    if (listed.ok) await runPrint(printer);
  };
  const fileName = handover?.pdfPath ? handoverFileName(handover.pdfPath) : null;
  const busy = closeState.busy || countState.busy || printState.busy;
  return (
    <div className="day-close">
      <div className="button-row">
        <button type="button" className="button" onClick={() => void runClose()} disabled={busy} data-testid="day-close">
          <Icon name="file" size={24} /> {t('supervision.dayClose.button')}
        </button>
        {printers.length > 0 && (
          <>
            <label htmlFor={`${id}-printer`} className="visually-hidden">
              {t('supervision.dayClose.printer')}
            </label>
            <select id={`${id}-printer`} value={printer} onChange={(event) => setPrinter(event.target.value)} disabled={printState.busy} data-testid="day-close-printer">
              <option value="">{t('supervision.dayClose.printer')}</option>
              {printers.map((candidate) => (
                <option key={candidate.id} value={candidate.id}>
                  {candidate.name}
                </option>
              ))}
            </select>
            <button type="button" className="button" onClick={() => void printList()} disabled={busy || printer === ''} data-testid="day-close-print">
              <Icon name="printer" size={24} /> {t('supervision.dayClose.print')}
            </button>
          </>
        )}
      </div>
      {printState.busy && handover && (
        <div className="progress-block" role="status" data-testid="day-close-printing">
          <progress />
          <span>
            {isZebra
              ? t('supervision.dayClose.printingLabels', { printer: printerName, labels: t('supervision.dayClose.labelCount', { count: Math.max(1, Math.ceil(handover.parcels / parcelsPerZebraLabel)) }), parcels: t('supervision.dayClose.parcelCount', { count: handover.parcels }) })
              : t('supervision.dayClose.printingPdf', { printer: printerName })}
          </span>
        </div>
      )}
      <CallError error={closeState.error ?? countState.error ?? printState.error} testId="day-close-error" />
      {handover && (
        <div className="small" role="status" data-testid="day-close-result">
          <p data-testid="day-close-summary">
            {t('supervision.dayClose.summaryCounted', {
              parcels: t('supervision.dayClose.parcelCount', { count: handover.parcels }),
              bundles: t('supervision.dayClose.bundleCount', { count: handover.bundles.length }),
              apart: handover.setApart.length,
            })}
          </p>
          <p data-testid="day-close-pull" className={handover.toPull > 0 ? 'tone-text-danger' : ''}>
            {t('supervision.dayClose.toPull', { count: handover.toPull })}
          </p>
          {handover.printed && <p data-testid="day-close-printed">{t('supervision.dayClose.printed', { printer: handover.printed.printer })}</p>}
          {inBrowser && fileName && (
            <p>
              <a className="button" href={`${handoverDownloadPath}${fileName}`} download={fileName} data-testid="day-close-download">
                <Icon name="file" size={24} /> {t('supervision.dayClose.download')}
              </a>
            </p>
          )}
          {handover.pdfPath && (
            <p>
              {t('supervision.dayClose.kept')} <code data-testid="day-close-path">{handover.pdfPath}</code>
            </p>
          )}
        </div>
      )}
    </div>
  );
}
