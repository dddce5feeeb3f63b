import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LedgerEntryData } from '../../../shared/contract/shipping';
import type { StationErrorData } from '../../../shared/errors';
import { CallError } from '../components/CallError';
import { useStation } from '../station-context';
import { useAppState } from '../state/stores-context';
import { DecideParcelDialog, type ParcelDecision } from './DecideParcelDialog';

const undecided = (entry: LedgerEntryData) => entry.state === 'unknown' || entry.state === 'posting';

/**
 * Under a ship refused because a creation's outcome is unknown: the parcels in doubt, each with
 * "Decide" for a lead. Once none is left in doubt, `onSettled` lets the panel ship again (a parcel
 * decided "not created" is then created; one decided "created" is printed).
 */
export function UnknownParcels({ orderRef, onSettled }: { orderRef: string; onSettled(): void }) {
  const { t } = useTranslation();
  const station = useStation();
  const operator = useAppState((state) => state.settings?.operator ?? '');
  const [entries, setEntries] = useState<LedgerEntryData[] | null>(null);
  const [deciding, setDeciding] = useState<LedgerEntryData | null>(null);
  const [error, setError] = useState<StationErrorData | null>(null);

  const load = useCallback(async () => {
    const result = await station['shipping.ledger']({ orderRef });
    if (!result.ok) return setError(result.error);
    setEntries(result.value.filter(undecided));
  }, [station, orderRef]);
  useEffect(() => void load(), [load]);

  const decide = async (entry: LedgerEntryData, decision: ParcelDecision) => {
    setDeciding(null);
    const result = await station['shipping.decide']({ orderRef, parcel: entry.parcel, ...decision });
    if (!result.ok) return setError(result.error);
    setError(null);
    const after = await station['shipping.ledger']({ orderRef });
    if (!after.ok) return setError(after.error);
    const left = after.value.filter(undecided);
    setEntries(left);
    if (left.length === 0) onSettled();
  };

  return (
    <div data-testid="ship-unknown">
      <CallError error={error} testId="ship-decide-error" />
      {entries && entries.length > 0 && (
        <ul className="ship-unknown-parcels">
          {entries.map((entry) => (
            <li key={entry.parcel} data-testid="ship-unknown-parcel">
              {t('ship.parcelOf', { n: entry.parcel, m: entry.parcelCount })} ({entry.serviceRef}){' '}
              <button type="button" className="button" onClick={() => setDeciding(entry)} data-testid="ship-decide">
                {t('ship.decide.open')}
              </button>
            </li>
          ))}
        </ul>
      )}
      {deciding && (
        <DecideParcelDialog
          orderRef={orderRef}
          parcel={deciding.parcel}
          parcelCount={deciding.parcelCount}
          serviceRef={deciding.serviceRef}
          operator={operator}
          onDecide={(decision) => void decide(deciding, decision)}
          onCancel={() => setDeciding(null)}
        />
      )}
    </div>
  );
}
