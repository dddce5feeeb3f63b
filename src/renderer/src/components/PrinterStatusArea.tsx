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

const toneRank = { danger: 0, warning: 1, neutral: 2, success: 3 } as const;

/**
 * More printers than the bar has room for (a bench on a warehouse store sees every shared one):
 * two chips, the ones needing attention first, and one chip for the rest, toned by the worst of
 * them. Up to this many every printer has its own chip.
 */
export const printerChipsShownWhole = 3;
const printerChipsBesideTheRest = 2;

/** The printers given their own chip, and those counted in the chip for the rest. */
export function chipsForTheBar(printers: readonly PrinterStatusView[]): { own: PrinterStatusView[]; rest: PrinterStatusView[] } {
  if (printers.length <= printerChipsShownWhole) return { own: [...printers], rest: [] };
  const byNeed = [...printers].sort((a, b) => toneRank[stateTone[a.state]] - toneRank[stateTone[b.state]]);
  const own = byNeed.slice(0, printerChipsBesideTheRest);
  return { own: printers.filter((printer) => own.includes(printer)), rest: printers.filter((printer) => !own.includes(printer)) };
}

/** Always on screen: each printer's name and state in words and an icon, not colour alone. */
export function PrinterStatusArea({
  printers,
  noPrinterForScans = false,
  onOpenPrinters,
}: {
  printers: readonly PrinterStatusView[] | null;
  noPrinterForScans?: boolean;
  onOpenPrinters?: () => void;
}) {
  const { t } = useTranslation();
  const { own, rest } = chipsForTheBar(printers ?? []);
  const restTone = rest.reduce<keyof typeof toneRank>((worst, printer) => (toneRank[stateTone[printer.state]] < toneRank[worst] ? stateTone[printer.state] : worst), 'success');
  const restNeedingYou = rest.filter((printer) => toneRank[stateTone[printer.state]] < toneRank.neutral).length;
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
      {own.map((printer) => (
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
        <button
          type="button"
          className={`printer-chip printer-chip-rest tone-${restTone}`}
          data-testid="printer-status-rest"
          title={rest.map((printer) => `${printer.name}: ${t(`printerStatus.${printer.state}`)}`).join('\n')}
          onClick={onOpenPrinters}
        >
          <Icon name="printer" size={28} />
          <span>
            <span className="printer-chip-name">{t('printerStatus.more', { count: rest.length })}</span>
            <small>{restNeedingYou > 0 ? t('printerStatus.moreNeedYou', { count: restNeedingYou }) : t('printerStatus.moreAllWell')}</small>
          </span>
        </button>
      )}
    </section>
  );
}
