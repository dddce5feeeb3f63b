import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { PrinterSettingsChangeData, PrinterSettingsData } from '../../../../shared/contract/printers';
import { a6LabelsIn, LABELS_PER_ROLL, ROLL_LENGTH_INCHES } from '../../../../shared/zebra/roll-and-head';
import { CallError } from '../../components/CallError';
import { Icon } from '../../components/Icon';
import { useAction } from '../../components/use-action';
import { useStation } from '../../station-context';
import { headFaultWords } from './care-words';

const METRES_PER_INCH = 0.0254;

/**
 * The printhead as its counters say: the length since it was last cleaned against the schedule
 * (one roll), the reminder when it is due, "I cleaned the printhead", its wear and its faults.
 */
export function PrintheadCare({ printerId, head, onCleaned }: { printerId: string; head: PrinterSettingsData['head']; onCleaned(result: PrinterSettingsChangeData): void }) {
  const { t, i18n } = useTranslation();
  const station = useStation();
  const clean = useCallback(() => station['printers.changeSettings']({ id: printerId, headCleaned: true }), [station, printerId]);
  const [runClean, cleanState] = useAction(clean, onCleaned);
  const number = (value: number) => value.toLocaleString(i18n.language);
  const since = head.sinceCleanedInches;
  return (
    <section className="subsection" aria-labelledby={`printhead-${printerId}`} data-testid={`printhead-${printerId}`}>
      <h3 id={`printhead-${printerId}`}>{t('printerCare.head.title')}</h3>
      {head.faults.length > 0 && (
        <ul className="warning-list" data-testid={`printhead-faults-${printerId}`}>
          {head.faults.map((fault) => (
            <li key={fault} className="error-text">
              <Icon name="stop" size={20} /> {headFaultWords(fault, t)}
            </li>
          ))}
        </ul>
      )}
      <dl className="facts small">
        <dt>{t('printerCare.head.sinceCleaned')}</dt>
        <dd data-testid={`printhead-since-cleaned-${printerId}`}>
          {since === null ? t('printerCare.notReported') : t('printerCare.head.sinceCleanedValue', { inches: number(since), labels: number(a6LabelsIn(since)) })}
        </dd>
        <dt>{t('printerCare.head.wear')}</dt>
        <dd data-testid={`printhead-wear-${printerId}`}>
          {head.headInches === null ? t('printerCare.notReported') : t('printerCare.head.wearValue', { inches: number(head.headInches), metres: number(Math.round(head.headInches * METRES_PER_INCH)) })}
        </dd>
      </dl>
      <p className="small muted">{t('printerCare.head.schedule', { inches: number(ROLL_LENGTH_INCHES), labels: number(LABELS_PER_ROLL) })}</p>
      {head.cleanNow && (
        <p className="warning-text" role="status" data-testid={`printhead-clean-now-${printerId}`}>
          <Icon name="warning" size={24} /> {t('printerCare.head.cleanNow')}
        </p>
      )}
      {head.replaceWarning && (
        <p className="warning-text" data-testid={`printhead-replace-${printerId}`}>
          <Icon name="warning" size={24} /> {t('printerCare.head.replace')}
        </p>
      )}
      <div className="button-row">
        <button type="button" className="button" onClick={() => void runClean()} disabled={cleanState.busy} data-testid={`printhead-cleaned-${printerId}`}>
          <Icon name="check" size={24} />
          {t('printerCare.head.cleaned')}
        </button>
      </div>
      {cleanState.done && (
        <p className="ok-text" role="status" data-testid={`printhead-cleaned-done-${printerId}`}>
          <Icon name="check" size={20} /> {t('printerCare.head.cleanedDone')}
        </p>
      )}
      <CallError error={cleanState.error} />
    </section>
  );
}
