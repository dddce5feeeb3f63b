import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Orientation } from '../../../../shared/api/schemas';
import type { PrinterCheckData, PrinterData, PrinterUpdateInput } from '../../../../shared/contract/printers';
import { CallError } from '../../components/CallError';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Icon } from '../../components/Icon';
import { PrinterStateBadge } from '../../components/PrinterStatusArea';
import { useAction } from '../../components/use-action';
import { useStation } from '../../station-context';
import type { PrinterCare } from '../../state/app-store';
import { useAppState, useStores } from '../../state/stores-context';
import { CheckResult } from './CheckResult';
import { heirOf, roleHolder } from './printer-roles';
import { printerAddressWords } from './address-words';
import { headFaultWords, rollWarnings } from './care-words';
import { PrinterSettingsPanel } from './PrinterSettingsPanel';

/** One printer: its live state, the roll and printhead faults it reports, pinned orientation, roles, test print, check, remove, and its own settings (a Zebra). */
export function PrinterCard({ printer }: { printer: PrinterData }) {
  const { t } = useTranslation();
  const station = useStation();
  const stores = useStores();
  const state = useAppState((app) => app.printerStates[printer.id] ?? 'unknown');
  const care = useAppState((app) => app.printerCare[printer.id]);
  // Only a Zebra the station talks to itself can be asked for its settings.
  const askable = printer.address.kind === 'network-zebra' || printer.address.kind === 'usb-zebra';
  const [settingsOpen, setSettingsOpen] = useState(false);
  // Opened below the card's buttons: brought into view, so the lead sees it open at 1024×768.
  const scrollIntoView = useCallback((panel: HTMLDivElement | null) => panel?.scrollIntoView({ block: 'start' }), []);
  const printers = useAppState((app) => app.printers) ?? [];
  // A role is taken from the printer that has it: the box says from whom.
  const singleHolder = roleHolder(printers, 'single');
  const bundlesHolder = roleHolder(printers, 'bundles');
  const heir = heirOf(printers, printer.id);
  const rolesGone = [printer.defaultForSingle && t('printers.roleSingle'), printer.defaultForBundles && t('printers.roleBundles')].filter((role): role is string => typeof role === 'string');
  const [check, setCheck] = useState<PrinterCheckData | null>(null);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const reload = useCallback(() => void stores.app.getState().loadPrinters(), [stores]);

  const update = useCallback((change: Omit<PrinterUpdateInput, 'id'>) => station['printers.update']({ id: printer.id, ...change }), [station, printer.id]);
  const [runUpdate, updateState] = useAction(update, reload);
  const test = useCallback(() => station['printers.test']({ id: printer.id }), [station, printer.id]);
  const [runTest, testState] = useAction(test);
  const checkCall = useCallback(() => station['printers.check']({ id: printer.id }), [station, printer.id]);
  const [runCheck, checkState] = useAction(checkCall, setCheck);
  const remove = useCallback(() => station['printers.remove']({ id: printer.id }), [station, printer.id]);
  const [runRemove, removeState] = useAction(remove, reload);

  const options = printer.options;
  return (
    <article className={settingsOpen ? 'card printer-card printer-card-open' : 'card printer-card'} aria-labelledby={`printer-${printer.id}-name`} data-testid={`printer-card-${printer.id}`}>
      <header className="printer-card-head">
        <h3 id={`printer-${printer.id}-name`}>{printer.name}</h3>
        <PrinterStateBadge state={state} />
      </header>
      <dl className="facts small">
        <dt>{t('printers.where')}</dt>
        <dd data-testid={`printer-where-${printer.id}`}>{printerAddressWords(printer.address, t)}</dd>
        <dt>{t('printers.takes')}</dt>
        <dd>{printer.format.toUpperCase()}</dd>
        <dt>{t('printers.resolution')}</dt>
        <dd>
          {options.dpi ? t('printers.dpi', { dpi: options.dpi }) : t('printers.unknown')}
          {options.printWidthDots ? ` · ${t('printers.widthDots', { dots: options.printWidthDots, mm: Math.round((options.printWidthDots / (options.dpi ?? 203)) * 25.4) })}` : ''}
        </dd>
      </dl>
      {options.warnings.length > 0 && (
        <ul className="warning-list">
          {options.warnings.map((warning) => (
            <li key={warning} className="warning-text">
              <Icon name="warning" size={20} /> {warning}
            </li>
          ))}
        </ul>
      )}
      <PrinterCareWarnings printerId={printer.id} care={care} />
      <div className="form-grid">
        <div className="field">
          <label htmlFor={`printer-${printer.id}-orientation`}>{t('printers.orientation')}</label>
          <select
            id={`printer-${printer.id}-orientation`}
            value={printer.orientation}
            onChange={(event) => void runUpdate({ orientation: event.target.value as Orientation })}
            data-testid={`printer-orientation-${printer.id}`}
          >
            <option value="portrait">{t('printers.orientations.portrait')}</option>
            <option value="landscape">{t('printers.orientations.landscape')}</option>
          </select>
        </div>
        <div className="field">
          <span className="field-label">{t('printers.roles')}</span>
          <label className="checkbox">
            <input type="checkbox" checked={printer.defaultForSingle} onChange={(event) => void runUpdate({ defaultForSingle: event.target.checked })} data-testid={`printer-single-${printer.id}`} />
            {!printer.defaultForSingle && singleHolder && singleHolder.id !== printer.id ? t('printers.takeSingleFrom', { name: singleHolder.name }) : t('printers.defaultForSingle')}
          </label>
          <label className="checkbox">
            <input type="checkbox" checked={printer.defaultForBundles} onChange={(event) => void runUpdate({ defaultForBundles: event.target.checked })} data-testid={`printer-bundles-${printer.id}`} />
            {!printer.defaultForBundles && bundlesHolder && bundlesHolder.id !== printer.id ? t('printers.takeBundlesFrom', { name: bundlesHolder.name }) : t('printers.defaultForBundles')}
          </label>
        </div>
      </div>
      <div className="button-row">
        <button type="button" className="button" onClick={() => void runTest()} disabled={testState.busy} data-testid={`printer-test-${printer.id}`}>
          <Icon name="printer" size={24} />
          {t('printers.testPrint')}
        </button>
        <button type="button" className="button" onClick={() => void runCheck()} disabled={checkState.busy}>
          {t('printers.check')}
        </button>
        <button type="button" className="button" onClick={() => setConfirmRemove(true)} disabled={removeState.busy} data-testid={`printer-remove-${printer.id}`}>
          {t('printers.remove')}
        </button>
        {askable && (
          <button
            type="button"
            className="button"
            aria-expanded={settingsOpen}
            aria-controls={`printer-settings-${printer.id}`}
            onClick={() => setSettingsOpen((open) => !open)}
            data-testid={`printer-settings-open-${printer.id}`}
          >
            <Icon name="setup" size={24} />
            {settingsOpen ? t('printerCare.close') : t('printerCare.open')}
          </button>
        )}
      </div>
      {testState.done && (
        <p className="ok-text" role="status" data-testid={`printer-test-done-${printer.id}`}>
          <Icon name="check" size={20} /> {t('printers.testSent')}
        </p>
      )}
      {check && <CheckResult check={check} />}
      {settingsOpen && (
        <div id={`printer-settings-${printer.id}`} ref={scrollIntoView}>
          <PrinterSettingsPanel printer={printer} />
        </div>
      )}
      <CallError error={updateState.error ?? testState.error ?? checkState.error ?? removeState.error} />
      {confirmRemove && (
        <ConfirmDialog
          title={t('printers.removeTitle', { name: printer.name })}
          confirmLabel={t('printers.remove')}
          cancelLabel={t('setup.cancel')}
          onConfirm={() => {
            setConfirmRemove(false);
            void runRemove();
          }}
          onCancel={() => setConfirmRemove(false)}
        >
          <p>{t('printers.removeBody')}</p>
          {rolesGone.length > 0 && heir && <p data-testid="printer-remove-heir">{t('printers.removeRolesGo', { roles: rolesGone.join(', '), name: heir.name })}</p>}
        </ConfirmDialog>
      )}
    </article>
  );
}

/** What the printer last said of its roll and its printhead that a lead must act on, in plain words. */
function PrinterCareWarnings({ printerId, care }: { printerId: string; care: PrinterCare | undefined }) {
  const { t } = useTranslation();
  const roll = rollWarnings(care?.roll ?? null, t);
  const head = care?.headFaults ?? [];
  if (roll.length === 0 && head.length === 0) return null;
  return (
    <ul className="warning-list" data-testid={`printer-care-${printerId}`}>
      {roll.map((warning) => (
        <li key={warning} className="warning-text" data-testid={`printer-roll-warning-${printerId}`}>
          <Icon name="warning" size={20} /> {warning}
        </li>
      ))}
      {head.map((fault) => (
        <li key={fault} className="error-text" data-testid={`printer-head-fault-${printerId}`}>
          <Icon name="stop" size={20} /> {headFaultWords(fault, t)}
        </li>
      ))}
    </ul>
  );
}
