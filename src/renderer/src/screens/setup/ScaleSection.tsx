import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { CallOutput } from '../../../../shared/contract';
import type { ScaleSetting, SerialProtocol } from '../../../../shared/contract/scales';
import { CallError } from '../../components/CallError';
import { useAction } from '../../components/use-action';
import { ScaleReadingLine } from '../../scale/ScaleReadingLine';
import { useStation } from '../../station-context';
import { useScaleState } from '../../state/stores-context';

type Devices = CallOutput<'scales.list'>;
const hex = (value: number) => value.toString(16).padStart(4, '0');
const baudRates = [1200, 2400, 4800, 9600, 19200, 38400] as const;

/**
 * The bench's scale: a serial port (typed, or picked from the ports this computer has) with its
 * protocol, or a USB HID scale. Choosing one starts reading it: the live reading shows here, so
 * putting a parcel on the scale is the test.
 */
export function ScaleSection() {
  const { t } = useTranslation();
  const id = useId();
  const station = useStation();
  const reading = useScaleState((state) => state.reading);
  const [devices, setDevices] = useState<Devices | null>(null);
  const [current, setCurrent] = useState<ScaleSetting | null>(null);
  const [kind, setKind] = useState<'serial' | 'hid'>('serial');
  const [path, setPath] = useState('');
  const [protocol, setProtocol] = useState<SerialProtocol>('mt-sics');
  const [baudRate, setBaudRate] = useState<(typeof baudRates)[number]>(9600);
  const [hidChoice, setHidChoice] = useState('');

  const load = useCallback(async () => {
    const [list, saved] = await Promise.all([station['scales.list']({}), station['scales.get']({})]);
    if (list.ok) setDevices(list.value);
    if (saved.ok) {
      setCurrent(saved.value.scale);
      const scale = saved.value.scale;
      if (scale?.kind === 'serial') {
        setKind('serial');
        setPath(scale.path);
        setProtocol(scale.protocol);
        setBaudRate(scale.baudRate);
      } else if (scale?.kind === 'hid') {
        setKind('hid');
        setHidChoice(`${scale.vendorId}:${scale.productId}`);
      }
    }
  }, [station]);
  useEffect(() => void load(), [load]);

  const save = useCallback((scale: ScaleSetting | null) => station['scales.set']({ scale }), [station]);
  const [run, state] = useAction(save, (value: CallOutput<'scales.set'>) => setCurrent(value.scale));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (kind === 'serial') {
      void run({ kind: 'serial', path: path.trim(), protocol, baudRate, dataBits: 8, parity: 'none', checksum: false });
      return;
    }
    const hid = devices?.hidScales.find((scale) => `${scale.vendorId}:${scale.productId}` === hidChoice);
    if (hid) void run({ kind: 'hid', vendorId: hid.vendorId, productId: hid.productId, path: hid.path });
  };

  return (
    <section className="card" aria-labelledby={`${id}-title`} data-testid="scale-section">
      <h2 id={`${id}-title`}>{t('setup.scale.title')}</h2>
      <p className="small muted">{t('setup.scale.hint')}</p>
      <form onSubmit={submit}>
        <fieldset className="field">
          <legend className="field-label">{t('setup.scale.kind')}</legend>
          <label className="checkbox">
            <input type="radio" name={`${id}-kind`} checked={kind === 'serial'} onChange={() => setKind('serial')} data-testid="scale-kind-serial" />
            {t('setup.scale.serial')}
          </label>
          <label className="checkbox">
            <input type="radio" name={`${id}-kind`} checked={kind === 'hid'} onChange={() => setKind('hid')} data-testid="scale-kind-hid" />
            {t('setup.scale.hid')}
          </label>
        </fieldset>
        {kind === 'serial' ? (
          <>
            <div className="field">
              <label htmlFor={`${id}-path`}>{t('setup.scale.port')}</label>
              <input id={`${id}-path`} type="text" list={`${id}-ports`} value={path} onChange={(event) => setPath(event.target.value)} autoComplete="off" data-testid="scale-port" />
              <datalist id={`${id}-ports`}>
                {devices?.serialPorts.map((port) => (
                  <option key={port.path} value={port.path}>
                    {[port.manufacturer, port.vendorId ? `${port.vendorId}:${port.productId ?? '?'}` : null].filter(Boolean).join(' ')}
                  </option>
                ))}
              </datalist>
              <p className="small muted" data-testid="scale-ports-found">
                {t('setup.scale.portsFound', { count: devices?.serialPorts.length ?? 0 })}
              </p>
            </div>
            <div className="field">
              <label htmlFor={`${id}-protocol`}>{t('setup.scale.protocol')}</label>
              <select id={`${id}-protocol`} value={protocol} onChange={(event) => setProtocol(event.target.value as SerialProtocol)} data-testid="scale-protocol">
                <option value="mt-sics">{t('setup.scale.protocols.mt-sics')}</option>
                <option value="toledo-continuous">{t('setup.scale.protocols.toledo-continuous')}</option>
              </select>
            </div>
            <div className="field">
              <label htmlFor={`${id}-baud`}>{t('setup.scale.baud')}</label>
              <select id={`${id}-baud`} value={baudRate} onChange={(event) => setBaudRate(Number(event.target.value) as (typeof baudRates)[number])} data-testid="scale-baud">
                {baudRates.map((rate) => (
                  <option key={rate} value={rate}>
                    {rate}
                  </option>
                ))}
              </select>
            </div>
          </>
        ) : (
          <div className="field">
            <label htmlFor={`${id}-hid`}>{t('setup.scale.hidDevice')}</label>
            <select id={`${id}-hid`} value={hidChoice} onChange={(event) => setHidChoice(event.target.value)} data-testid="scale-hid">
              <option value="">{devices && devices.hidScales.length === 0 ? t('setup.scale.noHid') : '—'}</option>
              {devices?.hidScales.map((scale) => (
                <option key={`${scale.vendorId}:${scale.productId}:${scale.path ?? ''}`} value={`${scale.vendorId}:${scale.productId}`}>
                  {[scale.manufacturer, scale.product].filter(Boolean).join(' ') || t('setup.scale.hidUnnamed')} ({hex(scale.vendorId)}:{hex(scale.productId)})
                </option>
              ))}
            </select>
          </div>
        )}
        <div className="button-row">
          <button type="submit" className="button button-primary" disabled={state.busy || (kind === 'serial' ? path.trim() === '' : hidChoice === '')} data-testid="scale-use">
            {t('setup.scale.use')}
          </button>
          <button type="button" className="button" onClick={() => void load()} data-testid="scale-refresh">
            {t('setup.scale.refresh')}
          </button>
          {current && (
            <button type="button" className="button" disabled={state.busy} onClick={() => void run(null)} data-testid="scale-none">
              {t('setup.scale.remove')}
            </button>
          )}
        </div>
        <CallError error={state.error} testId="scale-error" />
      </form>
      <div className="field" data-testid="scale-live">
        <span className="field-label">{t('setup.scale.live')}</span>
        <ScaleReadingLine reading={reading} testId="scale-reading" />
      </div>
    </section>
  );
}
