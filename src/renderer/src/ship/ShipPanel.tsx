import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Environment } from '../../../shared/contract/app';
import type { ShipPanel as Panel } from './ship-store';
import { ShipWeight } from './ShipWeight';
import { UnknownParcels } from './UnknownParcels';
import { errorText, shownDetails } from '../supervision/error-words';
import { useStation } from '../station-context';
import { Icon } from '../components/Icon';
import type { Shipment } from '../../../shared/contract/shipping';

/**
 * The pickup point's name and address for the packer to read (a `pp_…` id says nothing): the
 * service has no look-up by id, so the point is found among those near the shipment's address.
 * Null while asking or when it is not among them (then the id is all there is to show).
 */
function usePickupPointName(shipment: Shipment): string | null {
  const station = useStation();
  const [name, setName] = useState<{ pudoId: string; text: string } | null>(null);
  const { pudoId, address } = shipment;
  useEffect(() => {
    if (!pudoId) return;
    let current = true;
    void station['shipping.pickupPoints']({ countryCode: address.countryCode, postalCode: address.postalCode, maxResults: 100 }).then((result) => {
      const point = result.ok ? result.value.points.find((candidate) => candidate.pudoId === pudoId) : undefined;
      if (!current || !point) return;
      const where = [point.address?.street, point.address?.city].filter((part) => part).join(', ');
      setName({ pudoId, text: where ? `${point.name} — ${where}` : point.name });
    });
    return () => {
      current = false;
    };
  }, [station, pudoId, address.countryCode, address.postalCode]);
  return name !== null && name.pudoId === pudoId ? name.text : null;
}

/** The ship panel on the scan screen: the order to ship, its parcels, and what Enter did. */
export function ShipPanel({
  panel,
  environment,
  onClose,
  onSettled,
}: {
  panel: Exclude<Panel, { state: 'closed' }>;
  environment: Environment | undefined;
  onClose: () => void;
  /** A lead settled every parcel in doubt: the order may be shipped again. */
  onSettled: () => void;
}) {
  const { t, i18n } = useTranslation();
  const { shipment } = panel;
  const section = useRef<HTMLElement>(null);
  // The panel takes focus as it opens and as its state changes, so Enter answers it and never a button left focused.
  useEffect(() => section.current?.focus(), [panel.state, shipment.orderRef]);
  const address = shipment.address;
  const pickupPointName = usePickupPointName(shipment);
  const tone = panel.state === 'shipped' ? 'success' : panel.state === 'refused' ? 'danger' : panel.state === 'confirm' ? 'warning' : 'neutral';
  return (
    <section ref={section} tabIndex={-1} className={`result-panel tone-${tone} ship-panel`} data-testid="ship-panel" data-state={panel.state} aria-live="assertive">
      <div className="result-body">
        <h2 className="result-title">{t('ship.title', { orderRef: shipment.orderRef })}</h2>
        {panel.state === 'ready' && (
          <>
            <p className="result-line">{t('ship.parcelsHint')}</p>
            <p className="result-line">
              <strong>{t('ship.enterShips')}</strong>
            </p>
            {environment !== 'live' && (
              <p className="result-line ship-test-note" data-testid="ship-test-note">
                <Icon name="info" size={24} /> {environment === 'sandbox' ? t('ship.sandboxNote') : t('ship.testNote')}
              </p>
            )}
          </>
        )}
        {panel.state === 'working' && <p className="result-line">{t('ship.working', { count: panel.parcels })}</p>}
        {panel.state === 'confirm' && panel.outcome.outcome === 'confirm-address' && (
          <div data-testid="ship-corrected">
            <p className="result-line">
              <strong>{t('ship.correctedTitle')}</strong>
            </p>
            <table className="ship-differences">
              <thead>
                <tr>
                  <th />
                  <th>{t('ship.sent')}</th>
                  <th>{t('ship.resolved')}</th>
                </tr>
              </thead>
              <tbody>
                {panel.outcome.differences.map((difference) => (
                  <tr key={difference.field}>
                    <th scope="row">{t(`ship.fields.${difference.field}`, { defaultValue: difference.field })}</th>
                    <td>{difference.sent}</td>
                    <td>
                      <strong>{difference.resolved}</strong>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <p className="result-line">{t('ship.correctedAction')}</p>
          </div>
        )}
        {panel.state === 'confirm' && panel.outcome.outcome === 'confirm-live' && (
          <div data-testid="ship-live">
            <p className="result-line">
              <strong>{t('ship.liveTitle', { count: panel.outcome.toCreate })}</strong>
            </p>
            <p className="result-line">{t('ship.liveAction')}</p>
          </div>
        )}
        {panel.state === 'shipped' && (
          <div data-testid="ship-shipped">
            <p className="result-line">
              <strong>{t('ship.shipped', { count: panel.outcome.parcels.length })}</strong>
            </p>
            <ul className="ship-labels">
              {panel.outcome.parcels.map((parcel) => (
                <li key={parcel.parcel} data-testid="ship-label">
                  {t('ship.parcelOf', { n: parcel.parcel, m: parcel.parcelCount })}
                  {parcel.serviceRef !== panel.outcome.orderRef && ` · ${parcel.serviceRef}`}: {parcel.barcode ?? parcel.orderId}
                  {parcel.printed === 'duplicate' && ` — ${t('ship.printedBefore')}`}
                  {parcel.printed === 'failed' && ` — ${t('ship.printFailed', { problem: parcel.printProblem ?? '' })}`}
                </li>
              ))}
            </ul>
          </div>
        )}
        {panel.state === 'refused' && (
          <div role="alert" data-testid="ship-refused" data-code={panel.error.code}>
            <p className="result-line">
              <strong>{t('ship.refused')}</strong>: {errorText(panel.error, t, i18n.language).title} — {errorText(panel.error, t, i18n.language).action}
            </p>
            {shownDetails(panel.error).length > 0 && (
              <ul>
                {shownDetails(panel.error).map((detail) => (
                  <li key={detail}>{detail}</li>
                ))}
              </ul>
            )}
            {panel.error.code === 'OUTCOME_UNKNOWN' && <UnknownParcels orderRef={shipment.orderRef} onSettled={onSettled} />}
          </div>
        )}
        {(panel.state === 'ready' || panel.state === 'confirm') && <ShipWeight />}
        <dl className="ship-facts">
          {/* The parcels first, under the weight: the two figures the packer sets, in view at 1024×768 before any
              scrolling. Once shipped, the labels above say how many: the count would only push the facts out of view. */}
          {panel.state !== 'shipped' && (
            <>
              <dt>{t('ship.parcels')}</dt>
              <dd className="ship-parcels" data-testid="ship-parcels">
                {panel.parcels}
              </dd>
            </>
          )}
          <dt>{t('ship.recipient')}</dt>
          <dd data-testid="ship-recipient">{shipment.recipient.name ?? '—'}</dd>
          <dt>{t('ship.address')}</dt>
          <dd data-testid="ship-address">
            {address.street} {address.houseNumber}
            {address.suffix ? ` ${address.suffix}` : ''}, {address.postalCode} {address.city}, {address.countryCode}
          </dd>
          {shipment.pudoId && (
            <>
              <dt>{t('ship.pickupPoint')}</dt>
              <dd data-testid="ship-pickup-point" title={shipment.pudoId}>
                {pickupPointName ?? t('ship.pickupPointUnnamed', { pudoId: shipment.pudoId })}
              </dd>
            </>
          )}
          {(shipment.weight !== null || shipment.dimensions) && (
            <>
              <dt>{t('ship.measures')}</dt>
              <dd>
                {shipment.weight !== null ? `${shipment.weight} g` : ''}
                {shipment.dimensions ? ` ${shipment.dimensions.length}×${shipment.dimensions.width}×${shipment.dimensions.height} mm` : ''}
              </dd>
            </>
          )}
        </dl>
      </div>
      {/* Under the facts, never over them: the facts scroll in their own area above it. */}
      {panel.state !== 'working' && (
        <div className="ship-panel-foot">
          <button type="button" className="button" onClick={onClose} data-testid="ship-close">
            {t('ship.close')}
          </button>
        </div>
      )}
    </section>
  );
}
