import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { BundleSummaryData } from '../../../shared/contract/orders';
import type { StationErrorData } from '../../../shared/errors';
import { CallError } from '../components/CallError';
import { Icon } from '../components/Icon';
import { UnfinishedRuns } from '../components/UnfinishedRuns';
import { selectionTotals, toPrintOf } from '../shift/run-math';
import { UploadPanel } from '../shift/UploadPanel';
import { useAppState, useShiftState, useStores } from '../state/stores-context';
import { RunPanel } from './shift/RunPanel';
import { ScreenHeading } from './ScreenHeading';

/** Shift start: pick today's bundles (from the list, or scan their slips), choose the printer, print them all in one run. */
export default function ShiftStartScreen() {
  const { t } = useTranslation();
  const stores = useStores();
  const run = useShiftState((state) => state.run);
  useEffect(() => {
    void stores.shift.getState().loadUnfinished();
    void stores.shift.getState().loadBundles();
  }, [stores]);
  return (
    <div className="screen">
      <ScreenHeading>{t('shift.title')}</ScreenHeading>
      {run ? <RunPanel /> : <ChooseBundles />}
      <UploadPanel />
    </div>
  );
}

function ChooseBundles() {
  const { t } = useTranslation();
  const id = useId();
  const stores = useStores();
  const shift = stores.shift.getState();
  const bundles = useShiftState((state) => state.bundles);
  const bundlesError = useShiftState((state) => state.bundlesError);
  const selected = useShiftState((state) => state.selected);
  const printerId = useShiftState((state) => state.printerId);
  const reverse = useShiftState((state) => state.reverse);
  const printedToday = useShiftState((state) => state.printedToday);
  const reprintReason = useShiftState((state) => state.reprintReason);
  const busy = useShiftState((state) => state.busy);
  const error = useShiftState((state) => state.error);
  const printers = useAppState((state) => state.printers);
  const [typed, setTyped] = useState('');
  const totals = useMemo(() => selectionTotals(selected, bundles ?? []), [selected, bundles]);
  // Chosen ids the list does not show: printed today already, or not in today's list at all.
  const printedChosen = useMemo(() => totals.unlisted.filter((bundleId) => printedToday.includes(bundleId)), [totals, printedToday]);
  const unknownChosen = useMemo(() => totals.unlisted.filter((bundleId) => !printedToday.includes(bundleId)), [totals, printedToday]);
  const chosen = useMemo(() => new Set(selected), [selected]);

  const add = (event: FormEvent) => {
    event.preventDefault();
    shift.addBundles(typed);
    setTyped('');
  };

  return (
    <>
      <p className="lead">{t('shift.intro')}</p>
      <UnfinishedRuns />
      <div className="shift-grid">
        <section className="card" aria-labelledby={`${id}-bundles`} data-testid="todays-bundles">
          <h2 id={`${id}-bundles`}>{t('shift.todaysBundles')}</h2>
          <CallError error={bundlesError} />
          {bundles === null && !bundlesError && <p className="muted">{t('shift.listing')}</p>}
          {bundles !== null && bundles.length === 0 && (
            <p className="panel-note" data-testid="bundles-empty">
              {t('shift.noBundles')}
            </p>
          )}
          {bundles !== null && bundles.length > 0 && (
            <>
              <div className="bundle-toolbar">
                <ListedSummary bundles={bundles} />
                <div className="button-row">
                  <button type="button" className="button" onClick={() => shift.selectAll()} data-testid="bundles-select-all">
                    <Icon name="check" size={24} />
                    {t('shift.selectAll')}
                  </button>
                  <button type="button" className="button" onClick={() => shift.clearBundles()} disabled={selected.length === 0} data-testid="bundles-select-none">
                    {t('shift.selectNone')}
                  </button>
                </div>
              </div>
              <ul className="bundle-choices" data-testid="bundle-choices">
                {bundles.map((bundle) => (
                  <BundleChoice key={bundle.bundleId} bundle={bundle} checked={chosen.has(bundle.bundleId)} onToggle={() => shift.toggleBundle(bundle.bundleId)} />
                ))}
              </ul>
            </>
          )}
        </section>
        {/* The start button comes right after what is chosen, so it and its refusal stay in view at 1024×768. */}
        <section className="card shift-print" aria-labelledby={`${id}-print`}>
          <h2 id={`${id}-print`}>{t('shift.printTitle')}</h2>
          {selected.length === 0 ? (
            <p className="muted" data-testid="bundles-none">
              {t('shift.noneChosen')}
            </p>
          ) : (
            <p className="shift-chosen" data-testid="bundles-count">
              <strong>{t('shift.chosen', { count: selected.length })}</strong>
              {totals.labels > 0 && <span> {t('shift.chosenLabels', { count: totals.labels })}</span>}
              {unknownChosen.length > 0 && <span className="small muted"> {t('shift.chosenUnlisted', { count: unknownChosen.length })}</span>}
              {printedChosen.length > 0 && <span className="small muted" data-testid="bundles-count-printed"> {t('shift.chosenPrinted', { count: printedChosen.length })}</span>}
            </p>
          )}
          <button type="button" className="button button-primary button-large" disabled={busy || selected.length === 0 || reprintReason?.trim() === ''} onClick={() => void shift.start()} data-testid="run-start">
            <Icon name="printer" size={32} />
            {t('shift.start', { count: selected.length })}
          </button>
          <CallError error={error} testId="run-error" />
          <RollRefusal error={error} busy={busy} onStartAnyway={() => void shift.start({ acceptRoll: true })} />
          <div className="field">
            <label htmlFor={`${id}-printer`}>{t('shift.printer')}</label>
            <select id={`${id}-printer`} value={printerId ?? ''} onChange={(event) => shift.setPrinter(event.target.value || null)} data-testid="run-printer">
              <option value="">{t('shift.defaultPrinter')}</option>
              {printers?.map((printer) => (
                <option key={printer.id} value={printer.id}>
                  {printer.name}
                  {printer.defaultForBundles ? ` (${t('shift.defaultMark')})` : ''}
                </option>
              ))}
            </select>
          </div>
          <label className="checkbox">
            <input type="checkbox" checked={reverse} onChange={(event) => shift.setReverse(event.target.checked)} data-testid="run-reverse" />
            {t('shift.reverse')}
          </label>
          <label className="checkbox">
            <input type="checkbox" checked={reprintReason !== null} onChange={(event) => shift.setReprintReason(event.target.checked ? '' : null)} data-testid="run-reprint" />
            {t('shift.reprintOption')}
          </label>
          {reprintReason !== null && (
            <div className="field">
              <label htmlFor={`${id}-reason`}>{t('shift.reprintReason')}</label>
              <input id={`${id}-reason`} type="text" value={reprintReason} maxLength={200} onChange={(event) => shift.setReprintReason(event.target.value)} data-testid="run-reprint-reason" />
            </div>
          )}
          <form onSubmit={add} className="field bundle-add">
            <label htmlFor={`${id}-typed`}>{t('shift.addLabel')}</label>
            <div className="input-row">
              <input id={`${id}-typed`} type="text" value={typed} spellCheck={false} autoComplete="off" onChange={(event) => setTyped(event.target.value)} placeholder="BND-…" data-testid="bundle-input" />
              <button type="submit" className="button" disabled={typed.trim() === ''}>
                {t('shift.add')}
              </button>
            </div>
            <p className="small muted">{t('shift.scanHint')}</p>
          </form>
          {printedChosen.length > 0 && (
            <div data-testid="bundles-printed-today">
              <p>{t('shift.printedToday', { count: printedChosen.length })}</p>
              <ol className="bundle-list">
                {printedChosen.map((bundleId) => (
                  <li key={bundleId}>
                    <span className="mono">{bundleId}</span>
                    <button type="button" className="button button-quiet" onClick={() => shift.removeBundle(bundleId)} aria-label={t('shift.removeBundle', { bundleId })}>
                      {t('shift.remove')}
                    </button>
                  </li>
                ))}
              </ol>
            </div>
          )}
          {unknownChosen.length > 0 && (
            <div data-testid="bundles-unlisted">
              <p>{t('shift.unlisted', { count: unknownChosen.length })}</p>
              <ol className="bundle-list">
                {unknownChosen.map((bundleId) => (
                  <li key={bundleId}>
                    <span className="mono">{bundleId}</span>
                    <button type="button" className="button button-quiet" onClick={() => shift.removeBundle(bundleId)} aria-label={t('shift.removeBundle', { bundleId })}>
                      {t('shift.remove')}
                    </button>
                  </li>
                ))}
              </ol>
            </div>
          )}
        </section>
      </div>
    </>
  );
}

function BundleChoice({ bundle, checked, onToggle }: { bundle: BundleSummaryData; checked: boolean; onToggle(): void }) {
  const { t } = useTranslation();
  const shownRefs = bundle.orderRefs.slice(0, 3);
  return (
    <li>
      <label className={checked ? 'bundle-choice bundle-choice-on' : 'bundle-choice'} data-testid={`bundle-${bundle.bundleId}`}>
        <input type="checkbox" checked={checked} onChange={onToggle} />
        <span className="mono bundle-id">{bundle.bundleId}</span>
        <span className="bundle-parcels">
          {bundle.printed > 0 ? t('shift.parcelsPartly', { count: bundle.parcels, printed: bundle.printed }) : t('shift.parcels', { count: bundle.parcels })}
          {(bundle.leftOut ?? 0) > 0 && (
            <small className="bundle-left-out" data-testid="bundle-left-out">
              {t('shift.bundleLeftOut', { count: bundle.leftOut })}
            </small>
          )}
        </span>
        <span className="small muted bundle-refs">
          {shownRefs.join(', ')}
          {bundle.orderRefs.length > shownRefs.length ? ` ${t('shift.moreRefs', { count: bundle.orderRefs.length - shownRefs.length })}` : ''}
        </span>
      </label>
    </li>
  );
}

/** How many bundles and parcels to print, with the parcels that will not print (cancelled, delivered) apart. */
function ListedSummary({ bundles }: { bundles: readonly BundleSummaryData[] }) {
  const { t } = useTranslation();
  const toPrint = bundles.reduce((sum, bundle) => sum + toPrintOf(bundle), 0);
  const leftOut = bundles.reduce((sum, bundle) => sum + (bundle.leftOut ?? 0), 0);
  return (
    <p data-testid="bundles-listed">
      <span data-testid="bundles-to-print">{t('shift.listedSummary', { bundles: t('shift.listedBundles', { count: bundles.length }), toPrint: t('shift.toPrint', { count: toPrint }) })}</span>
      {leftOut > 0 && (
        <span className="small muted" data-testid="bundles-left-out">
          {' · '}
          {t('shift.leftOut', { count: leftOut })}
        </span>
      )}
    </p>
  );
}

/**
 * The run was refused because the printer's roll does not fit the A6 label: what is wrong with
 * it, and the lead's choice to start the run on it all the same.
 */
function RollRefusal({ error, busy, onStartAnyway }: { error: StationErrorData | null; busy: boolean; onStartAnyway(): void }) {
  const { t } = useTranslation();
  const facts = error?.facts;
  if (facts?.subject !== 'roll-does-not-fit' || typeof facts.issue !== 'string') return null;
  return (
    <div className="roll-refusal" data-testid="run-roll-refused">
      <p className="warning-text">
        <Icon name="warning" size={24} /> {t(`printerCare.roll.${facts.issue}`, { printerMm: Math.round(Number(facts.printerMm)), labelMm: Math.round(Number(facts.labelMm)) })}
      </p>
      <button type="button" className="button" disabled={busy} onClick={onStartAnyway} data-testid="run-start-anyway">
        {t('shift.rollStartAnyway')}
      </button>
    </div>
  );
}
