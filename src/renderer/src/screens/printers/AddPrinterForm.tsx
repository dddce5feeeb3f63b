import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { CallInput, CallOutput } from '../../../../shared/contract';
import type { Orientation } from '../../../../shared/api/schemas';
import type { PrinterAddressInput } from '../../../../shared/zebra/printer-address';
import { CallError } from '../../components/CallError';
import { InView } from '../../components/InView';
import { Icon } from '../../components/Icon';
import { useAction } from '../../components/use-action';
import { useStation } from '../../station-context';
import { useAppState } from '../../state/stores-context';
import { CheckResult } from './CheckResult';
import { roleHolder, unreachableWhere } from './printer-roles';

type Kind = PrinterAddressInput['kind'];
const kinds: Kind[] = ['network-zebra', 'os-queue-raw', 'os-queue-pdf', 'usb-zebra'];
type OsQueue = CallOutput<'printers.osQueues'>['queues'][number];
type UsbDevice = CallOutput<'printers.usbDevices'>['devices'][number];
/** The USB picker's choices besides a device's serial number. */
const firstUsb = '';
const typedUsb = 'typed';
type AddResult = CallOutput<'printers.add'>;

/** Adds a printer: a network Zebra, an OS print queue (raw ZPL or PDF), or a Zebra on USB. */
export function AddPrinterForm({ onAdded }: { onAdded(): void }) {
  const { t } = useTranslation();
  const id = useId();
  const station = useStation();
  const [kind, setKind] = useState<Kind>('network-zebra');
  const [name, setName] = useState('');
  const [host, setHost] = useState('');
  const [port, setPort] = useState('9100');
  const [queue, setQueue] = useState('');
  const [usbChoice, setUsbChoice] = useState(firstUsb);
  const [serial, setSerial] = useState('');
  const [devices, setDevices] = useState<UsbDevice[] | null>(null);
  const [orientation, setOrientation] = useState<Orientation>('portrait');
  // Taking a role from the printer that prints today is the lead's explicit choice, never a default.
  const [defaultForSingle, setDefaultForSingle] = useState(false);
  const [defaultForBundles, setDefaultForBundles] = useState(false);
  const printers = useAppState((state) => state.printers);
  const singleHolder = roleHolder(printers ?? [], 'single');
  const bundlesHolder = roleHolder(printers ?? [], 'bundles');
  const firstPrinter = printers !== null && printers.length === 0;
  const [queues, setQueues] = useState<OsQueue[] | null>(null);
  const [added, setAdded] = useState<AddResult | null>(null);

  const listQueues = useCallback(() => station['printers.osQueues']({}), [station]);
  const [loadQueues, queuesState] = useAction(listQueues, (value) => setQueues(value.queues));
  const needsQueues = kind === 'os-queue-raw' || kind === 'os-queue-pdf' || kind === 'usb-zebra';
  useEffect(() => {
    if (needsQueues && queues === null) void loadQueues();
  }, [needsQueues, queues, loadQueues]);

  // A print queue to add, but none to choose (no print system, or no queue in it): the form says
  // why beside the list, and Add waits, rather than the browser's own "select an item" in English.
  const noQueueToChoose = (kind === 'os-queue-raw' || kind === 'os-queue-pdf') && (queuesState.error !== null || (queues !== null && queues.length === 0));

  const listDevices = useCallback(() => station['printers.usbDevices']({}), [station]);
  const [loadDevices, devicesState] = useAction(listDevices, (value) => setDevices(value.devices));
  useEffect(() => {
    if (kind === 'usb-zebra' && devices === null) void loadDevices();
  }, [kind, devices, loadDevices]);

  const add = useCallback((input: CallInput<'printers.add'>) => station['printers.add'](input), [station]);
  const [submitAdd, addState] = useAction(add, (value) => {
    setAdded(value);
    setName('');
    setDefaultForSingle(false);
    setDefaultForBundles(false);
    onAdded();
  });

  const address = (): PrinterAddressInput => {
    switch (kind) {
      case 'network-zebra':
        return { kind, host: host.trim(), port: Number(port) };
      case 'os-queue-raw':
      case 'os-queue-pdf':
        return { kind, queue };
      case 'usb-zebra': {
        const serialNumber = usbChoice === typedUsb ? serial.trim() : usbChoice;
        return { kind, ...(serialNumber ? { serialNumber } : {}), ...(queue ? { fallbackQueue: queue } : {}) };
      }
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setAdded(null);
    void submitAdd({ name: name.trim(), address: address(), orientation, defaultForSingle, defaultForBundles });
  };

  return (
    <form className="card" onSubmit={submit} aria-labelledby={`${id}-title`} data-testid="add-printer">
      <h2 id={`${id}-title`}>{t('printers.add')}</h2>
      <fieldset className="choice-group choice-row">
        <legend className="field-label">{t('printers.kind')}</legend>
        {kinds.map((option) => (
          <label key={option} className="choice">
            <input type="radio" name={`${id}-kind`} value={option} checked={kind === option} onChange={() => setKind(option)} data-testid={`printer-kind-${option}`} />
            <span>
              <strong>{t(`printers.kinds.${option}`)}</strong>
            </span>
          </label>
        ))}
      </fieldset>
      <div className="form-grid">
        <div className="field">
          <label htmlFor={`${id}-name`}>{t('printers.name')}</label>
          <input id={`${id}-name`} type="text" value={name} maxLength={80} required onChange={(event) => setName(event.target.value)} placeholder={t('printers.namePlaceholder')} data-testid="printer-name" />
        </div>
        {kind === 'network-zebra' && (
          <>
            <div className="field">
              <label htmlFor={`${id}-host`}>{t('printers.host')}</label>
              <input id={`${id}-host`} type="text" value={host} required spellCheck={false} onChange={(event) => setHost(event.target.value)} placeholder="10.0.0.21" data-testid="printer-host" />
            </div>
            <div className="field">
              <label htmlFor={`${id}-port`}>{t('printers.port')}</label>
              <input id={`${id}-port`} type="number" min={1} max={65535} value={port} required onChange={(event) => setPort(event.target.value)} data-testid="printer-port" />
            </div>
          </>
        )}
        {needsQueues && (
          <div className={queuesState.error ? 'field field-wide' : 'field'}>
            <label htmlFor={`${id}-queue`}>{kind === 'usb-zebra' ? t('printers.fallbackQueue') : t('printers.queue')}</label>
            <select id={`${id}-queue`} value={queue} required={kind !== 'usb-zebra'} onChange={(event) => setQueue(event.target.value)} data-testid="printer-queue">
              <option value="">{kind === 'usb-zebra' ? t('printers.noFallback') : t('printers.chooseQueue')}</option>
              {queues?.map((osQueue) => (
                <option key={osQueue.name} value={osQueue.name}>
                  {osQueue.name}
                  {osQueue.isDefault ? ` (${t('printers.osDefault')})` : ''}
                </option>
              ))}
            </select>
            {queues !== null && queues.length === 0 && <p className="small muted">{t('printers.noQueues')}</p>}
            <CallError error={queuesState.error} testId="queues-error" />
          </div>
        )}
        {kind === 'usb-zebra' && (
          <div className="field field-wide" data-testid="usb-picker">
            <label htmlFor={`${id}-usb`}>{t('printers.usbDevice')}</label>
            <div className="input-row">
              <select id={`${id}-usb`} value={usbChoice} onChange={(event) => setUsbChoice(event.target.value)} aria-describedby={`${id}-usb-hint`} data-testid="printer-usb-device">
                <option value={firstUsb}>{t('printers.usbFirst')}</option>
                {devices?.map((device, index) =>
                  device.serialNumber ? (
                    <option key={device.serialNumber} value={device.serialNumber}>
                      {t('printers.usbOption', { product: device.product ?? t('printers.kinds.usb-zebra'), serial: device.serialNumber })}
                    </option>
                  ) : (
                    <option key={`unnamed-${index}`} value={firstUsb} disabled>
                      {t('printers.usbNoSerial', { product: device.product ?? t('printers.kinds.usb-zebra') })}
                    </option>
                  ),
                )}
                <option value={typedUsb}>{t('printers.usbTyped')}</option>
              </select>
              <button type="button" className="button" onClick={() => void loadDevices()} disabled={devicesState.busy} data-testid="printer-usb-refresh">
                {t('printers.usbLookAgain')}
              </button>
            </div>
            <p id={`${id}-usb-hint`} className="small muted" data-testid="usb-found">
              {devices === null ? t('printers.usbLooking') : devices.length === 0 ? t('printers.usbNone') : t('printers.usbFound', { count: devices.length })}
            </p>
            <CallError error={devicesState.error} />
            {usbChoice === typedUsb && (
              <>
                <label htmlFor={`${id}-serial`}>{t('printers.serial')}</label>
                <input id={`${id}-serial`} type="text" value={serial} maxLength={128} required spellCheck={false} onChange={(event) => setSerial(event.target.value)} data-testid="printer-usb-serial" />
              </>
            )}
          </div>
        )}
        <div className="field">
          <label htmlFor={`${id}-orientation`}>{t('printers.orientation')}</label>
          <select id={`${id}-orientation`} value={orientation} onChange={(event) => setOrientation(event.target.value as Orientation)} data-testid="printer-orientation">
            <option value="portrait">{t('printers.orientations.portrait')}</option>
            <option value="landscape">{t('printers.orientations.landscape')}</option>
          </select>
        </div>
      </div>
      {firstPrinter ? (
        <p className="small muted" data-testid="printer-first">
          {t('printers.firstPrinter')}
        </p>
      ) : (
        <fieldset className="choice-group">
          <legend className="field-label">{t('printers.roles')}</legend>
          <label className="checkbox">
            <input type="checkbox" checked={defaultForSingle} onChange={(event) => setDefaultForSingle(event.target.checked)} data-testid="printer-role-single" />
            {singleHolder ? t('printers.takeSingleFrom', { name: singleHolder.name }) : t('printers.defaultForSingle')}
          </label>
          <label className="checkbox">
            <input type="checkbox" checked={defaultForBundles} onChange={(event) => setDefaultForBundles(event.target.checked)} data-testid="printer-role-bundles" />
            {bundlesHolder ? t('printers.takeBundlesFrom', { name: bundlesHolder.name }) : t('printers.defaultForBundles')}
          </label>
        </fieldset>
      )}
      <button type="submit" className="button button-primary" disabled={addState.busy || noQueueToChoose} data-testid="printer-add">
        {addState.busy ? t('printers.adding') : t('printers.addButton')}
      </button>
      <InView>
        <CallError error={addState.error} testId="add-printer-error" />
        {added && <AddedResult added={added} />}
      </InView>
    </form>
  );
}

/** What adding did, truthfully: added and what it prints, or saved but not answering (and printing nothing). */
function AddedResult({ added }: { added: AddResult }) {
  const { t } = useTranslation();
  const { printer, check } = added;
  const where = check ? unreachableWhere(check) : null;
  if (where !== null) {
    return (
      <div role="status" data-testid="printer-added">
        <p className="warning-text" data-testid="printer-added-not-answering">
          <Icon name="warning" size={24} /> {t('printers.addedNotAnswering', { name: printer.name, where })}
        </p>
      </div>
    );
  }
  const roles = [printer.defaultForSingle && t('printers.roleSingle'), printer.defaultForBundles && t('printers.roleBundles')].filter((role): role is string => typeof role === 'string');
  return (
    <div role="status" data-testid="printer-added">
      <p className="ok-text">
        {t('printers.added', { name: printer.name })} {roles.length > 0 ? t('printers.addedPrints', { roles: roles.join(', ') }) : t('printers.addedNoRoles')}
      </p>
      {check && <CheckResult check={check} />}
    </div>
  );
}
