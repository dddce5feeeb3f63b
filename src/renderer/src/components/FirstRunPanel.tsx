import { useTranslation } from 'react-i18next';
import type { IndexedOrderData } from '../../../shared/contract/orders';
import { Icon } from './Icon';
import { GuideButton } from '../guide/GuideButton';

/** The words a packer would scan for an order: its ref, else its parcel barcode, else its id. */
export const sampleScan = (order: IndexedOrderData): string => order.orderRef ?? order.barcode ?? order.orderId;

/**
 * Shown while the station runs on its embedded sandbox: says so, so nobody believes a parcel
 * shipped, and offers a few of today's sample orders to try (pressing one scans it).
 */
export function FirstRunPanel({ samples, onTry }: { samples: readonly IndexedOrderData[] | null; onTry: (scan: string) => void }) {
  const { t } = useTranslation();
  return (
    <aside className="first-run" data-testid="first-run" aria-labelledby="first-run-title">
      <div>
        <h2 id="first-run-title">
          <Icon name="info" size={28} /> {t('firstRun.title')}
        </h2>
        <p>{t('firstRun.body')}</p>
        {samples !== null && samples.length > 0 ? (
          <>
            <p>{t('firstRun.samples')}</p>
            <ul className="sample-list" data-testid="sample-orders">
              {samples.map((order) => (
                <li key={order.orderId}>
                  <button type="button" className="button sample-button" onClick={() => onTry(sampleScan(order))} data-testid="sample-order">
                    {sampleScan(order)}
                  </button>
                </li>
              ))}
            </ul>
          </>
        ) : (
          // Only once the samples are read: while they load, or when they cannot be read (the
          // store offline), "every sample order is printed" would be a claim nobody checked.
          samples !== null && <p data-testid="no-samples">{t('firstRun.noSamples')}</p>
        )}
        <p className="small">{t('firstRun.setup')}</p>
        <GuideButton testId="guide-open-first-run" />
      </div>
    </aside>
  );
}
