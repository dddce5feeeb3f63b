import { useTranslation } from 'react-i18next';
import { Icon, type IconName } from './Icon';

export type PrinterState = 'ready' | 'printing' | 'paperOut' | 'headOpen' | 'paused' | 'offline' | 'error' | 'unknown';

export interface PrinterStatusView {
  id: string;
  name: string;
  state: PrinterState;
}

const stateIcon: Record<PrinterState, IconName> = {
  ready: 'check',
  printing: 'printer',
  paperOut: 'stop',
  headOpen: 'stop',
  paused: 'pause',
  offline: 'plug',
  error: 'stop',
  unknown: 'question',
};

const stateTone: Record<PrinterState, 'success' | 'warning' | 'danger' | 'neutral'> = {
  ready: 'success',
  printing: 'success',
  paperOut: 'danger',
  headOpen: 'danger',
  paused: 'warning',
  offline: 'danger',
  error: 'danger',
  unknown: 'neutral',
};

/** One printer's state in a word and an icon, for lists. */
export function PrinterStateBadge({ state }: { state: PrinterState }) {
  const { t } = useTranslation();
  return (
    <span className={`state-badge tone-${stateTone[state]}`} data-state={state}>
      <Icon name={stateIcon[state]} size={22} />
      {t(`printerStatus.${state}`)}
    </span>
  );
}

/** Always on screen: each printer's name and state in words and an icon, not colour alone. */
export function PrinterStatusArea({ printers, noPrinterForScans = false }: { printers: readonly PrinterStatusView[] | null; noPrinterForScans?: boolean }) {
  const { t } = useTranslation();
  return (
    <section className="printer-status" aria-label={t('printerStatus.label')} aria-live="polite" data-testid="printer-status">
      {printers === null && (
        <div className="printer-chip tone-neutral">
          <Icon name="question" size={28} />
          <span>{t('printerStatus.unknown')}</span>
        </div>
      )}
      {printers !== null && printers.length === 0 && (
        <div className="printer-chip tone-neutral">
          <Icon name="printer" size={28} />
          <span>
            {t('printerStatus.none')}
            <small>{t('printerStatus.noneHint')}</small>
          </span>
        </div>
      )}
      {noPrinterForScans && (
        <div className="printer-chip tone-danger" data-testid="printer-none-for-scans">
          <Icon name="stop" size={28} />
          <span>
            {t('printerStatus.noneForScans')}
            <small>{t('printerStatus.noneForScansHint')}</small>
          </span>
        </div>
      )}
      {printers?.map((printer) => (
        <div key={printer.id} className={`printer-chip tone-${stateTone[printer.state]}`} data-testid={`printer-${printer.id}`}>
          <Icon name={stateIcon[printer.state]} size={28} />
          <span>
            <span className="printer-chip-name" title={printer.name}>
              {printer.name}
            </span>
            <small>{t(`printerStatus.${printer.state}`)}</small>
          </span>
        </div>
      ))}
    </section>
  );
}
