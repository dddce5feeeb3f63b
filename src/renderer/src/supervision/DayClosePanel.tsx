import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { HandoverData } from '../../../shared/contract/supervision';
import { CallError } from '../components/CallError';
import { Icon } from '../components/Icon';
import { useAction } from '../components/use-action';
import { useStation } from '../station-context';

/** Closes the day: the courier's handover list, kept as a PDF in the station's data folder. */
export function DayClosePanel() {
  const { t } = useTranslation();
  const station = useStation();
  const [handover, setHandover] = useState<HandoverData | null>(null);
  const close = useCallback(() => station['supervision.dayClose']({}), [station]);
  const [run, state] = useAction(close, setHandover);
  return (
    <div className="day-close">
      <button type="button" className="button" onClick={() => void run()} disabled={state.busy} data-testid="day-close">
        <Icon name="file" size={24} /> {t('supervision.dayClose.button')}
      </button>
      <CallError error={state.error} />
      {handover && (
        <div className="small" role="status" data-testid="day-close-result">
          <p data-testid="day-close-summary">
            {t('supervision.dayClose.summary', { parcels: handover.parcels, bundles: handover.bundles.length, apart: handover.setApart.length })}
          </p>
          <p data-testid="day-close-pull" className={handover.toPull > 0 ? 'tone-text-danger' : ''}>
            {t('supervision.dayClose.toPull', { count: handover.toPull })}
          </p>
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
