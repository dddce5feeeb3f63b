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

/** How many printers' chips the top bar has room for at a bench's 1024 px, beside who is packing. */
const chipRoom = 2;

/** The state that needs a person most: a stop before a pause, a pause before "not known", anything before ready. */
const toneRank: Record<'success' | 'warning' | 'danger' | 'neutral', number> = { danger: 3, warning: 2, neutral: 1, success: 0 };
function worstState(printers: readonly PrinterStatusView[]): PrinterState {
  return printers.reduce<PrinterState>((worst, printer) => (toneRank[stateTone[printer.state]] > toneRank[stateTone[worst]] ? printer.state : worst), 'ready');
}

/**
 * Always on screen: each printer's name and state in words and an icon, not colour alone. Past
 * the room of the bar (three printers or more) the first keeps its chip (the caller lists the
 * printer for scans first) and the rest share one, "+2 more", in the state of the one that needs
 * a person most (their names and states in its tooltip and for a screen reader): the name shown
 * stays readable and no chip is cut off the bar's edge.
 */
export function PrinterStatusArea({
  printers,
  noPrinterForScans = false,
  onOpenPrinters,
}: {
  printers: readonly PrinterStatusView[] | null;
  noPrinterForScans?: boolean;
  /** The chip for the rest opens Printers, where each one is. */
  onOpenPrinters?: () => void;
}) {
  const { t } = useTranslation();
  // Crowded, the first printer keeps its chip (unless the bar already says none prints scans) and one chip stands for the rest.
  const crowded = printers !== null && printers.length > chipRoom;
  const kept = noPrinterForScans ? 0 : 1;
  const shown = printers && crowded ? printers.slice(0, kept) : printers;
  const rest = printers && crowded ? printers.slice(kept) : [];
  const restState = worstState(rest);
  const restWords = rest.map((printer) => `${printer.name}: ${t(`printerStatus.${printer.state}`)}`).join(', ');
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
      {shown?.map((printer) => (
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
      {rest.length > 0 && (
        <button type="button" className={`printer-chip printer-chip-more tone-${stateTone[restState]}`} title={restWords} data-testid="printer-more" onClick={onOpenPrinters}>
          <Icon name={stateIcon[restState]} size={28} />
          <span>
            <span className="printer-chip-name">{t('printerStatus.more', { count: rest.length })}</span>
            <small>{t(`printerStatus.${restState}`)}</small>
            <span className="visually-hidden">{restWords}</span>
          </span>
        </button>
      )}
    </section>
  );
}
