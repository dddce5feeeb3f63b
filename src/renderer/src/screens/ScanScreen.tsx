import { useTranslation } from 'react-i18next';
import { FirstRunPanel } from '../components/FirstRunPanel';
import { ManualEntry } from '../components/ManualEntry';
import { RecentLabels } from '../components/RecentLabels';
import { ScanResultPanel } from '../components/ScanResultPanel';
import { useAppState, useScanState, useStores } from '../state/stores-context';
import { ScreenHeading } from './ScreenHeading';

/** The home screen: the outcome of the last scan fills it; recent labels and the manual entry sit beside it. */
export default function ScanScreen() {
  const { t } = useTranslation();
  const stores = useStores();
  const panel = useScanState((state) => state.panel);
  const recent = useScanState((state) => state.recent);
  const environment = useAppState((state) => state.info?.environment);
  const submit = (text: string) => void stores.scan.getState().submitScan(text);

  return (
    <div className="scan-screen">
      <ScreenHeading hidden>{t('nav.scan')}</ScreenHeading>
      <div className="scan-main">
        <ScanResultPanel
          panel={panel}
          onConfirmReprint={() => stores.scan.getState().confirmReprint()}
          onChooseReason={(reason) => void stores.scan.getState().chooseReason(reason)}
          onDismiss={() => stores.scan.getState().dismiss()}
        />
        <ManualEntry onSubmit={submit} />
      </div>
      <div className="scan-side">
        {environment === 'sandbox' && <FirstRunPanel samples={[]} onTry={submit} />}
        <RecentLabels labels={recent} onReprint={(index) => stores.scan.getState().reprintRecent(index)} />
      </div>
    </div>
  );
}
