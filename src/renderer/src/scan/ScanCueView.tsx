import { useTranslation } from 'react-i18next';
import { useScanStateBeside } from '../state/stores-context';
import type { ScanCue, ScanState } from '../state/scan-store';
import { Icon } from '../components/Icon';

/**
 * A small cue while a scanner is typing ("Reading… 14 characters"), so a slow wireless scanner
 * is seen to be heard; and a hint when someone typed outside any field too slowly to be a scan.
 * The cue follows in a drawing of its own, right after: taking it away never holds up the scan's
 * outcome that replaces it.
 */
export function ScanCueView() {
  const { t } = useTranslation();
  const cue = useScanStateBeside(cueOf);
  return (
    <div className="scan-cue-slot" aria-live="polite">
      {cue.state === 'reading' && (
        <p className="scan-cue" data-testid="scan-cue" data-cue="reading">
          <Icon name="scan" size={28} /> {t('scan.cueReading', { count: cue.characters })}
        </p>
      )}
      {cue.state === 'too-slow' && (
        <p className="scan-cue scan-cue-slow" data-testid="scan-cue" data-cue="too-slow">
          <Icon name="info" size={28} /> {t('scan.cueTooSlow', { count: cue.characters })}
        </p>
      )}
    </div>
  );
}

const cueOf = (state: ScanState): ScanCue => state.cue;
