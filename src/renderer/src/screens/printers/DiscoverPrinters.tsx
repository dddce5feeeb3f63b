import { useCallback, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { CallInput, CallOutput } from '../../../../shared/contract';
import type { DiscoveredPrinterData } from '../../../../shared/contract/printers';
import { CallError } from '../../components/CallError';
import { useAction } from '../../components/use-action';
import { useStation } from '../../station-context';
import { CheckResult } from './CheckResult';

type Found = CallOutput<'printers.discover'>;
type Added = CallOutput<'printers.add'>;
const keyOf = (printer: DiscoveredPrinterData) => (printer.kind === 'network-zebra' ? `zebra:${printer.host}:${printer.port}` : `queue:${printer.name}`);

/**
 * Printers found without typing an address: network Zebras that answer Zebra's discovery on the
 * network chosen (by default the networks this computer is on), and the OS's print queues. Each is
 * added with one button, through the same add and identity check as the form below.
 */
export function DiscoverPrinters({ onAdded }: { onAdded(): void }) {
  const { t } = useTranslation();
  const id = useId();
  const station = useStation();
  const [subnet, setSubnet] = useState('');
  const [port, setPort] = useState('4201');
  const [found, setFound] = useState<Found | null>(null);
  const [added, setAdded] = useState<Map<string, Added>>(new Map());

  const search = useCallback((input: CallInput<'printers.discover'>) => station['printers.discover'](input), [station]);
  const [runSearch, searchState] = useAction(search, (value: Found) => setFound(value));
  const add = useCallback((input: CallInput<'printers.add'>) => station['printers.add'](input), [station]);
  const [runAdd, addState] = useAction(add);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setAdded(new Map());
    const portNumber = Number(port);
    void runSearch({ ...(subnet.trim() ? { subnet: subnet.trim() } : {}), ...(Number.isInteger(portNumber) && portNumber > 0 && portNumber !== 4201 ? { port: portNumber } : {}) });
  };

  const addFound = async (printer: DiscoveredPrinterData) => {
    const address = printer.kind === 'network-zebra' ? { kind: 'network-zebra' as const, host: printer.host, port: printer.port } : { kind: 'os-queue-raw' as const, queue: printer.name };
    const result = await runAdd({ name: printer.name.slice(0, 80), address });
    if (!result.ok) return;
    setAdded((current) => new Map(current).set(keyOf(printer), result.value));
    onAdded();
  };

  return (
    <section className="card" aria-labelledby={`${id}-title`} data-testid="discover-printers">
      <h2 id={`${id}-title`}>{t('printers.discover.title')}</h2>
      <p className="small muted">{t('printers.discover.intro')}</p>
      <form className="form-grid" onSubmit={submit}>
        <div className="field">
          <label htmlFor={`${id}-subnet`}>{t('printers.discover.subnet')}</label>
          <input id={`${id}-subnet`} type="text" value={subnet} maxLength={18} placeholder="192.168.1.0/24" onChange={(event) => setSubnet(event.target.value)} aria-describedby={`${id}-subnet-hint`} data-testid="discover-subnet" />
          <p id={`${id}-subnet-hint`} className="small muted">
            {t('printers.discover.subnetHint')}
          </p>
        </div>
        <div className="field">
          <label htmlFor={`${id}-port`}>{t('printers.discover.port')}</label>
          <input id={`${id}-port`} type="text" inputMode="numeric" value={port} maxLength={5} onChange={(event) => setPort(event.target.value)} data-testid="discover-port" />
        </div>
        <div className="field">
          <button type="submit" className="button button-primary" disabled={searchState.busy} data-testid="discover-search">
            {searchState.busy ? t('printers.discover.searching') : t('printers.discover.search')}
          </button>
        </div>
      </form>
      <CallError error={searchState.error} testId="discover-error" />
      {found && (
        <>
          <p role="status" data-testid="discover-count">
            <FoundWords found={found} />
          </p>
          {found.printers.length > 0 && (
            <table className="table" data-testid="discover-results">
              <thead>
                <tr>
                  <th>{t('printers.name')}</th>
                  <th>{t('printers.discover.model')}</th>
                  <th>{t('printers.discover.resolution')}</th>
                  <th>{t('printers.discover.address')}</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {found.printers.map((printer) => {
                  const done = added.get(keyOf(printer));
                  return (
                    <tr key={keyOf(printer)} data-testid="discover-row" data-kind={printer.kind}>
                      <td>
                        <strong>{printer.name}</strong>
                        <br />
                        <span className="small muted">{t(`printers.discover.kinds.${printer.kind}`)}</span>
                      </td>
                      <td>{printer.kind === 'network-zebra' ? [printer.model, printer.firmware].filter(Boolean).join(' · ') || t('printers.unknown') : printer.system.toUpperCase()}</td>
                      <td>{printer.kind === 'network-zebra' && printer.dpi ? t('printers.dpi', { dpi: printer.dpi }) : t('printers.unknown')}</td>
                      <td>{printer.kind === 'network-zebra' ? `${printer.host}:${printer.port}` : printer.name}</td>
                      <td>
                        {done ? (
                          <div data-testid="discover-added">
                            <p className="ok-text">{t('printers.discover.added', { name: done.printer.name })}</p>
                            {done.check && <CheckResult check={done.check} />}
                          </div>
                        ) : printer.addedAs ? (
                          <span className="muted">{t('printers.discover.known')}</span>
                        ) : (
                          <button type="button" className="button" disabled={addState.busy} onClick={() => void addFound(printer)} data-testid="discover-add">
                            {t('printers.discover.add')}
                          </button>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          )}
        </>
      )}
      <CallError error={addState.error} testId="discover-add-error" />
    </section>
  );
}

/** What the search came to, print queues always said: a lead on a PC without Zebras on its network may still have queues. */
function FoundWords({ found }: { found: Found }) {
  const { t } = useTranslation();
  const networks = found.subnets.join(', ');
  const zebras = found.printers.filter((printer) => printer.kind === 'network-zebra').length;
  if (found.printers.length === 0) return <>{t('printers.discover.none', { networks })}</>;
  if (zebras === 0) return <>{t('printers.discover.queuesOnly', { networks })}</>;
  return (
    <>
      {t('printers.discover.found', { count: found.printers.length })} ({networks})
    </>
  );
}
