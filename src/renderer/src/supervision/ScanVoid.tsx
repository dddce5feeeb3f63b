import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CancelOutcomeData } from '../../../shared/contract/supervision';
import { CallError } from '../components/CallError';
import { useAction } from '../components/use-action';
import { useStation } from '../station-context';
import { useAppState, useScanState, useStores } from '../state/stores-context';
import { VoidDialog, type VoidRequest } from './VoidDialog';

/** The scan screen's void: STATION:VOID, then the parcel, then who and why; the service's answer in words. */
export function ScanVoid() {
  const { t } = useTranslation();
  const station = useStation();
  const stores = useStores();
  // The parcel to cancel, once scanned after STATION:VOID: a scan's outcome does not draw this part.
  const voidScan = useScanState((state) => (state.panel.state === 'void' ? state.panel.scan : null));
  const operator = useAppState((state) => state.settings?.operator ?? '');
  const live = useAppState((state) => state.info?.environment === 'live');
  const [outcome, setOutcome] = useState<CancelOutcomeData | null>(null);
  const cancel = useCallback(
    (scan: string, request: VoidRequest) =>
      station['supervision.cancel']({ scan, reason: request.reason, operator: request.operator, ...(request.confirm !== undefined ? { confirm: request.confirm } : {}) }),
    [station],
  );
  const done = useCallback(
    (cancelled: CancelOutcomeData) => {
      setOutcome(cancelled);
      // A cancelled order is no sample to try any more (the sandbox's list follows prints, not voids).
      if (cancelled.outcome !== 'refused') void stores.sandbox.getState().loadSamples();
    },
    [stores],
  );
  const [run, state] = useAction(cancel, done);
  return (
    <>
      <CallError error={state.error} testId="scan-void-error" />
      {state.done && outcome && (
        <p className="ok-text" role="status" data-testid="scan-void-result">
          {t(`supervision.void.outcome.${outcome.outcome}`, { orderRef: outcome.orderRef ?? outcome.orderId, status: outcome.status ?? '?', message: outcome.message ?? t('supervision.void.noReason') })}
        </p>
      )}
      {voidScan !== null && (
        <VoidDialog
          orderRef={voidScan}
          bundleId={null}
          operator={operator}
          live={live}
          onVoid={(request) => {
            stores.scan.getState().dismiss();
            void run(voidScan, request);
          }}
          onCancel={() => stores.scan.getState().dismiss()}
        />
      )}
    </>
  );
}
