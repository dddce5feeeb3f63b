import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../components/Icon';
import type { ScanState } from '../state/scan-store';
import { useScanStateBeside } from '../state/stores-context';
import { WhereaboutsPanel } from './WhereaboutsPanel';

/** Codes of a refused scan that still name one known order: its whereabouts can be shown. */
const orderCodes = new Set(['ORDER_VOIDED', 'ORDER_TERMINAL', 'ALREADY_PRINTED']);

/** Under the scan result: where the order just scanned is (timeline, tracking link, printed here or not). */
export function ScanWhereabouts() {
  const { t } = useTranslation();
  // Only the scan it is about, drawn right after the scan's outcome in a drawing of its own.
  const scan = useScanStateBeside(whereaboutsScan);
  const [open, setOpen] = useState<string | null>(null);
  if (open) return <WhereaboutsPanel key={open} scan={open} onClose={() => setOpen(null)} />;
  if (!scan) return null;
  return (
    <button type="button" className="button" onClick={() => setOpen(scan)} data-testid="scan-where">
      <Icon name="question" size={24} /> {t('supervision.where.button')}
    </button>
  );
}

/** The scan whose whereabouts can be shown for the panel on screen, if any. */
function whereaboutsScan({ panel }: ScanState): string | null {
  const outcome = panel.state === 'outcome' ? panel.outcome : null;
  if (outcome?.kind === 'printed') return outcome.label.scan;
  if (outcome?.kind === 'duplicate' || outcome?.kind === 'elsewhere') return outcome.scan;
  if (outcome?.kind === 'failed' && orderCodes.has(outcome.error.code)) return outcome.scan;
  return null;
}
