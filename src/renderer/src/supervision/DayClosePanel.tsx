import { useCallback, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { HandoverData } from '../../../shared/contract/supervision';
import { CallError } from '../components/CallError';
import { Icon } from '../components/Icon';
import { useAction } from '../components/use-action';
import { useStation } from '../station-context';
import { useAppState } from '../state/stores-context';

/** Closes the day: the courier's handover list, kept as a PDF in the station's data folder, printed when asked. */
export function DayClosePanel() {
  const { t } = useTranslation();
  const id = useId();
  const station = useStation();
  const printers = useAppState((state) => state.printers) ?? [];
  const [printer, setPrinter] = useState('');
  const [handover, setHandover] = useState<HandoverData | null>(null);
  const close = useCallback((printOn: string) => station['supervision.dayClose'](printOn ? { printer: printOn } : {}), [station]);
  const [run, state] = useAction(close, setHandover);
  return (
    <div className="day-close">
      <div className="button-row">
        <button type="button" className="button" onClick={() => void run('')} disabled={state.busy} data-testid="day-close">
          <Icon name="file" size={24} /> {t('supervision.dayClose.button')}
        </button>
        {printers.length > 0 && (
          <>
            <label htmlFor={`${id}-printer`} className="visually-hidden">
              {t('supervision.dayClose.printer')}
            </label>
            <select id={`${id}-printer`} value={printer} onChange={(event) => setPrinter(event.target.value)} data-testid="day-close-printer">
              <option value="">{t('supervision.dayClose.printer')}</option>
              {printers.map((candidate) => (
                <option key={candidate.id} value={candidate.id}>
                  {candidate.name}
                </option>
              ))}
            </select>
            <button type="button" className="button" onClick={() => void run(printer)} disabled={state.busy || printer === ''} data-testid="day-close-print">
              <Icon name="printer" size={24} /> {t('supervision.dayClose.print')}
            </button>
          </>
        )}
      </div>
      <CallError error={state.error} />
      {handover && (
        <div className="small" role="status" data-testid="day-close-result">
          <p data-testid="day-close-summary">
            {t('supervision.dayClose.summary', { parcels: handover.parcels, bundles: handover.bundles.length, apart: handover.setApart.length })}
          </p>
          <p data-testid="day-close-pull" className={handover.toPull > 0 ? 'tone-text-danger' : ''}>
            {t('supervision.dayClose.toPull', { count: handover.toPull })}
          </p>
          {handover.printed && <p data-testid="day-close-printed">{t('supervision.dayClose.printed', { printer: handover.printed.printer })}</p>}
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
