import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../components/Icon';
import { useScanState } from '../state/stores-context';
import { WhereaboutsPanel } from './WhereaboutsPanel';

/** Codes of a refused scan that still name one known order: its whereabouts can be shown. */
const orderCodes = new Set(['ORDER_VOIDED', 'ORDER_TERMINAL', 'ALREADY_PRINTED']);

/** Under the scan result: where the order just scanned is (timeline, tracking link, printed here or not). */
export function ScanWhereabouts() {
  const { t } = useTranslation();
  const panel = useScanState((state) => state.panel);
  const [open, setOpen] = useState<string | null>(null);
  const outcome = panel.state === 'outcome' ? panel.outcome : null;
  const scan =
    outcome?.kind === 'printed'
      ? outcome.label.scan
      : outcome?.kind === 'duplicate'
        ? outcome.scan
        : outcome?.kind === 'failed' && orderCodes.has(outcome.error.code)
          ? outcome.scan
          : null;
  if (open) return <WhereaboutsPanel key={open} scan={open} onClose={() => setOpen(null)} />;
  if (!scan) return null;
  return (
    <button type="button" className="button" onClick={() => setOpen(scan)} data-testid="scan-where">
      <Icon name="question" size={24} /> {t('supervision.where.button')}
    </button>
  );
}
