import { memo, useCallback, useDeferredValue, useEffect } from 'react';
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
import { useAppState, useSandboxState, useScanState, useShipState, useStores } from '../state/stores-context';
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
  const panel = useScanState((state) => state.panel);
  const recent = useScanState((state) => state.recent);
  // A scan's outcome is drawn first, on its own; the last labels follow in a drawing of their own
  // right after, so the list never holds the outcome up. The keys (F6–F9) act on the store's list,
  // which is current at once.
  const shownRecent = useDeferredValue(recent);
  const reprintRecent = useCallback((index: number) => stores.scan.getState().reprintRecent(index), [stores]);
  const previewRecent = useCallback((index: number) => stores.scan.getState().previewRecent(index), [stores]);
  const preview = useScanState((state) => state.preview);
  const environment = useAppState((state) => state.info?.environment);
  const shipPanel = useShipState((state) => state.panel);
  const submit = useCallback((text: string) => void handleBenchScan(stores, text), [stores]);

  return (
    <div className={environment === 'sandbox' ? 'scan-screen scan-screen-sandbox' : 'scan-screen'}>
      <ScreenHeading hidden>{t('nav.scan')}</ScreenHeading>
      <div className="scan-main">
        {shipPanel.state !== 'closed' ? (
          <ShipPanel panel={shipPanel} environment={environment} onClose={() => stores.ship.getState().close()} onSettled={() => stores.ship.getState().retry()} />
        ) : (
          <ScanResultPanel
            panel={panel}
            onConfirmReprint={() => stores.scan.getState().confirmReprint()}
            onChooseReason={(reason) => void stores.scan.getState().chooseReason(reason)}
            onDismiss={() => stores.scan.getState().dismiss()}
            onCancelWaiting={() => void stores.scan.getState().cancelWaiting()}
            onResumeWaiting={() => void stores.scan.getState().resumeWaiting()}
          />
        )}
        <ScanVoidPart />
        <ScanWhereaboutsPart />
        <ManualEntryPart onSubmit={submit} />
      </div>
      <div className="scan-side">
        {/* The last labels first: their F6–F9 reprints are what a packer reaches for, in the sandbox too. */}
        <RecentLabels labels={shownRecent} onReprint={reprintRecent} onPreview={previewRecent} />
        {environment === 'sandbox' && <SandboxPanels onTry={submit} />}
        <ShipImportPart />
      </div>
      {preview && <EntryPreviewDialog entryId={preview.entryId} orderRef={preview.orderRef} onClose={() => stores.scan.getState().closePreview()} />}
    </div>
  );
}

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
