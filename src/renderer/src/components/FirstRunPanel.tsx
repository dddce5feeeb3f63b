import { useTranslation } from 'react-i18next';
import { Icon } from './Icon';

/**
 * Shown while the station runs on its embedded sandbox: says so, so nobody believes a parcel
 * shipped, and offers sample order refs to try when the station can list them.
 */
export function FirstRunPanel({ samples, onTry }: { samples: readonly string[]; onTry: (orderRef: string) => void }) {
  const { t } = useTranslation();
  return (
    <aside className="first-run" data-testid="first-run" aria-labelledby="first-run-title">
      <Icon name="info" size={40} />
      <div>
        <h2 id="first-run-title">{t('firstRun.title')}</h2>
        <p>{t('firstRun.body')}</p>
        {samples.length > 0 ? (
          <>
            <p>{t('firstRun.samples')}</p>
            <ul className="sample-list">
              {samples.map((orderRef) => (
                <li key={orderRef}>
                  <button type="button" className="button sample-button" onClick={() => onTry(orderRef)}>
                    {orderRef}
                  </button>
                </li>
              ))}
            </ul>
          </>
        ) : (
          <p>{t('firstRun.noSamples')}</p>
        )}
        <p className="small">{t('firstRun.setup')}</p>
      </div>
    </aside>
  );
}
