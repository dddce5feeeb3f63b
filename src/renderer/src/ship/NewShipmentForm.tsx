import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { PickupPoint } from '../../../shared/api/schemas';
import type { Shipment } from '../../../shared/contract/shipping';
import type { StationErrorData } from '../../../shared/errors';
import { ConfirmDialogShell } from '../components/ConfirmDialog';
import { useStation } from '../station-context';
import { errorText, shownDetails } from '../supervision/error-words';
import { ScaleReadingLine } from '../scale/ScaleReadingLine';
import { useScaleState, useStores } from '../state/stores-context';
import { typedGrams } from './ShipWeight';

/** Typing pauses this long before the postal code is checked. */
const postalCheckDelayMs = 400;
/** The coverage list is fetched again this often while the form is open (it changes; never the final answer). */
const coverageRefreshMs = 15 * 60_000;
const pickupTypes = ['', 'PARCEL_LOCKER', 'PICKUP_DROPOFF_POINT', 'MAILBOX_POBOX'] as const;
const weekdays = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;

type PostalState = { kind: 'idle' } | { kind: 'checking' } | { kind: 'served' } | { kind: 'not-served'; reason: string } | { kind: 'error'; error: StationErrorData };

/** Today's opening hours of a point in words: open 24h, the slots, or closed. */
function todaysHours(point: PickupPoint, closed: string, allDay: string): string {
  if (point.openingHours?.open24h) return allDay;
  const slots = point.openingHours?.weekdays?.[weekdays[new Date().getDay()]!] ?? [];
  return slots.length === 0 ? closed : slots.map((slot) => `${slot.openTime}–${slot.closeTime}`).join(', ');
}

/** Parcels with no slip: the address with the postal-code check as you type, coverage with its age, and a pickup point picker. */
export function NewShipmentForm({ onShip, onCancel }: { onShip(shipment: Shipment): void; onCancel(): void }) {
  const { t, i18n } = useTranslation();
  const station = useStation();
  const [fields, setFields] = useState({ orderRef: '', locationId: '1101', recipientName: '', street: '', houseNumber: '', suffix: '', postalCode: '', city: '', countryCode: 'NL', parcels: '1' });
  const [postal, setPostal] = useState<PostalState>({ kind: 'idle' });
  const [coverage, setCoverage] = useState<{ fetchedAt: string; countries: string[] } | null>(null);
  const [points, setPoints] = useState<PickupPoint[] | null>(null);
  const [pickupType, setPickupType] = useState<(typeof pickupTypes)[number]>('');
  const [pudoId, setPudoId] = useState<string | null>(null);
  const [error, setError] = useState<StationErrorData | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const checkSequence = useRef(0);
  const stores = useStores();
  const scaleReading = useScaleState((state) => state.reading);
  const scaleConfigured = useScaleState((state) => state.configured);
  // The parcel's weight: the scale's stable weight as it arrives, unless the packer typed one.
  const [weight, setWeight] = useState<{ text: string; typed: boolean }>(() => {
    const grams = stores.scale.getState().weightNow();
    return { text: grams === null ? '' : String(grams), typed: false };
  });
  useEffect(
    () =>
      stores.scale.getState().onWeighed((grams) => setWeight((current) => (current.typed ? current : { text: String(grams), typed: false }))),
    [stores],
  );
  const weightInvalid = weight.text.trim() !== '' && typedGrams(weight.text) === null;
  const set = (name: keyof typeof fields) => (event: { target: { value: string } }) => setFields((current) => ({ ...current, [name]: event.target.value }));

  // The postal-code check as the packer types, after a pause; the station keeps answers a few minutes.
  useEffect(() => {
    const postalCode = fields.postalCode.trim();
    if (postalCode.length < 4 || !/^\d{1,12}$/.test(fields.locationId) || !/^[A-Za-z]{2}$/.test(fields.countryCode)) {
      setPostal({ kind: 'idle' });
      return;
    }
    const sequence = ++checkSequence.current;
    const timer = setTimeout(() => {
      setPostal({ kind: 'checking' });
      void station['shipping.checkPostalCode']({ locationId: fields.locationId, request: { postalCode, countryCode: fields.countryCode.toUpperCase() } }).then((result) => {
        if (sequence !== checkSequence.current) return;
        if (!result.ok) setPostal({ kind: 'error', error: result.error });
        else setPostal(result.value.deliverable ? { kind: 'served' } : { kind: 'not-served', reason: result.value.reason ?? '' });
      });
    }, postalCheckDelayMs);
    return () => clearTimeout(timer);
  }, [station, fields.postalCode, fields.locationId, fields.countryCode]);

  // Coverage of the location, with its age, fetched again regularly.
  useEffect(() => {
    if (!/^\d{1,12}$/.test(fields.locationId)) return;
    const load = (refresh: boolean) =>
      void station['shipping.coverage']({ locationId: fields.locationId, refresh }).then((result) => {
        if (result.ok) setCoverage({ fetchedAt: result.value.fetchedAt, countries: Object.keys(result.value.coverage) });
      });
    load(false);
    const refresh = setInterval(() => load(true), coverageRefreshMs);
    const tick = setInterval(() => setNow(Date.now()), 30_000);
    return () => {
      clearInterval(refresh);
      clearInterval(tick);
    };
  }, [station, fields.locationId]);

  const searchPoints = async () => {
    setError(null);
    const result = await station['shipping.pickupPoints']({
      countryCode: fields.countryCode.toUpperCase(),
      postalCode: fields.postalCode.trim(),
      maxResults: 10,
      ...(pickupType ? { types: [pickupType] } : {}),
    });
    if (!result.ok) setError(result.error);
    else {
      setPoints(result.value.points);
      setPudoId(null);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const result = await station['shipping.newShipment']({
      orderRef: fields.orderRef,
      locationId: fields.locationId,
      recipientName: fields.recipientName,
      address: { street: fields.street, houseNumber: fields.houseNumber, suffix: fields.suffix, postalCode: fields.postalCode, city: fields.city, countryCode: fields.countryCode },
      parcels: Number(fields.parcels),
      ...(pudoId ? { pudoId } : {}),
      ...(typedGrams(weight.text) !== null ? { weight: typedGrams(weight.text)! } : {}),
    });
    if (result.ok) onShip(result.value);
    else setError(result.error);
  };

  const field = (name: keyof typeof fields, label: string, extra: { inputMode?: 'numeric' } = {}) => (
    <label className="form-field">
      <span>{label}</span>
      <input value={fields[name]} onChange={set(name)} data-testid={`new-shipment-${name}`} {...extra} />
    </label>
  );
  const ageMinutes = coverage ? Math.max(0, Math.floor((now - Date.parse(coverage.fetchedAt)) / 60_000)) : null;

  return (
    <ConfirmDialogShell title={t('ship.form.title')} wide onCancel={onCancel}>
      <form onSubmit={(event) => void submit(event)} className="new-shipment" data-testid="new-shipment">
        <div className="new-shipment-grid">
          {field('orderRef', t('ship.form.reference'))}
          {field('locationId', t('ship.form.location'), { inputMode: 'numeric' })}
          {field('recipientName', t('ship.recipient'))}
          {field('street', t('ship.fields.street'))}
          {field('houseNumber', t('ship.fields.houseNumber'))}
          {field('suffix', t('ship.fields.suffix'))}
          {field('postalCode', t('ship.fields.postalCode'))}
          {field('city', t('ship.fields.city'))}
          {field('countryCode', t('ship.fields.countryCode'))}
          {field('parcels', t('ship.parcels'), { inputMode: 'numeric' })}
          <label className="form-field">
            <span>{t('ship.weight.label')}</span>
            <span className="input-with-unit">
              <input value={weight.text} inputMode="numeric" aria-invalid={weightInvalid} data-testid="new-shipment-weight" onChange={(event) => setWeight({ text: event.target.value, typed: true })} />
              <span className="unit">g</span>
            </span>
            {weightInvalid && <span className="tone-text-danger">{t('ship.weight.invalid')}</span>}
            {scaleConfigured && <ScaleReadingLine reading={scaleReading} testId="new-shipment-scale-reading" />}
          </label>
        </div>
        <p aria-live="polite" data-testid="new-shipment-postal" data-state={postal.kind}>
          {postal.kind === 'checking' && t('ship.form.postalChecking')}
          {postal.kind === 'served' && t('ship.form.postalServed')}
          {postal.kind === 'not-served' && t('ship.form.postalNotServed', { reason: postal.reason })}
          {postal.kind === 'error' && errorText(postal.error, t, i18n.language).title}
        </p>
        {coverage && ageMinutes !== null && (
          <p className="muted" data-testid="new-shipment-coverage">
            {t('ship.form.coverage', { countries: coverage.countries.join(', '), minutes: ageMinutes })}
          </p>
        )}
        <fieldset className="new-shipment-pickup">
          <legend>{t('ship.pickupPoint')}</legend>
          <label className="form-field">
            <span>{t('ship.form.pickupType')}</span>
            <select value={pickupType} onChange={(event) => setPickupType(event.target.value as (typeof pickupTypes)[number])} data-testid="new-shipment-pickup-type">
              {pickupTypes.map((type) => (
                <option key={type} value={type}>
                  {t(`ship.form.pickupTypes.${type || 'ALL'}`)}
                </option>
              ))}
            </select>
          </label>
          <button type="button" className="button" onClick={() => void searchPoints()} data-testid="new-shipment-find-points">
            {t('ship.form.findPoints')}
          </button>
          {points && points.length === 0 && <p data-testid="new-shipment-no-points">{t('ship.form.noPoints')}</p>}
          {points && points.length > 0 && (
            <div role="radiogroup" aria-label={t('ship.pickupPoint')} className="pickup-list" data-testid="new-shipment-points">
              <label className="pickup-row">
                <input type="radio" name="pudo" checked={pudoId === null} onChange={() => setPudoId(null)} />
                <span>{t('ship.form.homeDelivery')}</span>
              </label>
              {points.map((point) => (
                <label className="pickup-row" key={point.pudoId} data-testid="new-shipment-point">
                  <input type="radio" name="pudo" checked={pudoId === point.pudoId} onChange={() => setPudoId(point.pudoId)} />
                  <span>
                    <strong>{point.name}</strong> · {t(`ship.form.pointTypes.${point.type}`)} · {((point.distanceMeters ?? 0) / 1000).toFixed(1)} km ·{' '}
                    {todaysHours(point, t('ship.form.closedToday'), t('ship.form.open24h'))}
                    {point.facilities?.accessibility ? ` · ${t('ship.form.accessible')}` : ''}
                    {point.facilities?.carParking ? ` · ${t('ship.form.parking')}` : ''}
                  </span>
                </label>
              ))}
            </div>
          )}
        </fieldset>
        {error && (
          <div role="alert" className="tone-text-danger" data-testid="new-shipment-error">
            <p>
              {errorText(error, t, i18n.language).title} — {errorText(error, t, i18n.language).action}
            </p>
            {shownDetails(error).length > 0 && (
              <ul>
                {shownDetails(error).map((detail) => (
                  <li key={detail}>{detail}</li>
                ))}
              </ul>
            )}
          </div>
        )}
        <div className="button-row">
          <button type="button" className="button" onClick={onCancel}>
            {t('ship.close')}
          </button>
          <button type="submit" className="button button-primary" data-testid="new-shipment-submit">
            {t('ship.form.submit')}
          </button>
        </div>
      </form>
    </ConfirmDialogShell>
  );
}
