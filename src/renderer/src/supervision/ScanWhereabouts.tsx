import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../components/Icon';
import type { ScanPanel, ScanState } from '../state/scan-store';
import { useScanStateBeside } from '../state/stores-context';
import { WhereaboutsPanel } from './WhereaboutsPanel';

/** Codes of a refused scan that still name one known order: its whereabouts can be shown. */
const orderCodes = new Set(['ORDER_VOIDED', 'ORDER_TERMINAL', 'ALREADY_PRINTED']);

/**
 * Under the scan result: where the order just scanned is (timeline, tracking link, printed here or
 * not). The panel belongs to the outcome it was opened from: once that outcome leaves the screen
 * (Esc, the next scan, a badge), so does the panel.
 */
export function ScanWhereabouts() {
  const { t } = useTranslation();
  // Drawn right after the scan's outcome, in a drawing of its own.
  const panel = useScanStateBeside(panelOf);
  const [open, setOpen] = useState<{ scan: string; panel: ScanPanel } | null>(null);
  const scan = whereaboutsScan(panel);
  if (open && open.panel === panel) return <WhereaboutsPanel key={open.scan} scan={open.scan} onClose={() => setOpen(null)} />;
  if (!scan) return null;
  return (
    <button type="button" className="button" onClick={() => setOpen({ scan, panel })} data-testid="scan-where">
      <Icon name="question" size={24} /> {t('supervision.where.button')}
    </button>
  );
}

const panelOf = (state: ScanState) => state.panel;

/** The scan whose whereabouts can be shown for the panel on screen, if any. */
function whereaboutsScan(panel: ScanPanel): string | null {
  const outcome = panel.state === 'outcome' ? panel.outcome : null;
  if (outcome?.kind === 'printed') return outcome.label.scan;
  if (outcome?.kind === 'duplicate' || outcome?.kind === 'elsewhere') return outcome.scan;
  if (outcome?.kind === 'failed' && orderCodes.has(outcome.error.code)) return outcome.scan;
  return null;
}
