import { memo, useCallback, useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { FirstRunPanel } from '../components/FirstRunPanel';
import { ManualEntry } from '../components/ManualEntry';
import { RecentLabels } from '../components/RecentLabels';
import { ScanResultPanel } from '../components/ScanResultPanel';
import { VirtualPrinterPanel } from '../components/VirtualPrinterPanel';
import { EntryPreviewDialog } from '../preview/PreviewDialog';
import { ShipImport } from '../ship/ShipImport';
import { ShipPanel } from '../ship/ShipPanel';
import { handleBenchScan } from '../scan/bench-scan';
import type { ReprintReason } from '../scan/commands';
import type { Environment } from '../../../shared/contract/app';
import { useAppState, useSandboxState, useScanState, useScanStateBeside, useShipState, useStores } from '../state/stores-context';
import type { ScanState } from '../state/scan-store';
import { ScanVoid } from '../supervision/ScanVoid';
import { ScanWhereabouts } from '../supervision/ScanWhereabouts';
import { ScreenHeading } from './ScreenHeading';

// The parts around the scan's outcome that draw from their own state only: a scan's outcome does not
// draw them again, so it reaches the screen sooner.
const ScanVoidPart = memo(ScanVoid);
const ScanWhereaboutsPart = memo(ScanWhereabouts);
const ManualEntryPart = memo(ManualEntry);
const ShipImportPart = memo(ShipImport);

/** The home screen: the outcome of the last scan fills it; recent labels and the manual entry sit beside it. */
export default function ScanScreen() {
  const { t } = useTranslation();
  const stores = useStores();
  const preview = useScanState((state) => state.preview);
  const environment = useAppState((state) => state.info?.environment);
  const submit = useCallback((text: string) => void handleBenchScan(stores, text), [stores]);

  // A scan's outcome draws only the parts that show it (the panel, then the last labels), not
  // this screen around them.
  return (
    <div className={environment === 'sandbox' ? 'scan-screen scan-screen-sandbox' : 'scan-screen'}>
      <ScreenHeading hidden>{t('nav.scan')}</ScreenHeading>
      <div className="scan-main">
        <ScanOutcomePart environment={environment} />
        <ScanVoidPart />
        <ScanWhereaboutsPart />
        <ManualEntryPart onSubmit={submit} />
      </div>
      <div className="scan-side">
        {/* The last labels first: their F6–F9 reprints are what a packer reaches for, in the sandbox too. */}
        <RecentLabelsPart />
        {environment === 'sandbox' && <SandboxPanels onTry={submit} />}
        <ShipImportPart />
      </div>
      {preview && <EntryPreviewDialog entryId={preview.entryId} orderRef={preview.orderRef} onClose={() => stores.scan.getState().closePreview()} />}
    </div>
  );
}

/** The big panel: the ship panel while a slip is being shipped, else the last scan's outcome. */
const ScanOutcomePart = memo(function ScanOutcomePart({ environment }: { environment: Environment | undefined }) {
  const stores = useStores();
  const panel = useScanState((state) => state.panel);
  const shipPanel = useShipState((state) => state.panel);
  const actions = useMemo(() => {
    const scan = () => stores.scan.getState();
    return {
      onConfirmReprint: () => scan().confirmReprint(),
      onChooseOrder: (index: number) => void scan().chooseOrder(index),
      onChooseReason: (reason: ReprintReason) => void scan().chooseReason(reason),
      onDismiss: () => scan().dismiss(),
      onCancelWaiting: () => void scan().cancelWaiting(),
      onResumeWaiting: () => void scan().resumeWaiting(),
    };
  }, [stores]);
  if (shipPanel.state !== 'closed') {
    return <ShipPanel panel={shipPanel} environment={environment} onClose={() => stores.ship.getState().close()} onSettled={() => stores.ship.getState().retry()} />;
  }
  return <ScanResultPanel panel={panel} {...actions} />;
});

/**
 * The last labels. A scan's outcome is drawn first, on its own; the list follows in a drawing of
 * its own right after, so it never holds the outcome up. The keys (F6–F9) act on the store's list,
 * which is current at once.
 */
function RecentLabelsPart() {
  const stores = useStores();
  const recent = useScanStateBeside(recentOf);
  const reprintRecent = useCallback((index: number) => stores.scan.getState().reprintRecent(index), [stores]);
  const previewRecent = useCallback((index: number) => stores.scan.getState().previewRecent(index), [stores]);
  return <RecentLabels labels={recent} onReprint={reprintRecent} onPreview={previewRecent} />;
}

const recentOf = (state: ScanState) => state.recent;

/**
 * On the embedded sandbox: what to try, and what the virtual printer printed, kept up to date while
 * shown. Drawn again only when its own state changes, not with every scan's outcome beside it.
 */
const SandboxPanels = memo(function SandboxPanels({ onTry }: { onTry: (scan: string) => void }) {
  const stores = useStores();
  const samples = useSandboxState((state) => state.samples);
  const printed = useSandboxState((state) => state.printed);
  useEffect(() => stores.sandbox.getState().follow(), [stores]);
  return (
    <>
      <FirstRunPanel samples={samples} onTry={onTry} />
      <VirtualPrinterPanel labels={printed} />
    </>
  );
});
