import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { SettingsChange } from '../../../../shared/contract/settings';
import { keyboardLayoutIds, type KeyboardLayoutId } from '../../../../shared/keyboard/layouts';
import { SCANNER_CHECK_TEXT } from '../../../../shared/keyboard/scanner-check';
import { CallError } from '../../components/CallError';
import { Icon } from '../../components/Icon';
import { useAction } from '../../components/use-action';
import { pcLayoutsFromMap, scannerVerdict, type ScannerVerdict } from '../../scan/scanner-check';
import { useStation } from '../../station-context';
import { useAppState, useStores } from '../../state/stores-context';

/** The browser's keyboard map (Chromium's Keyboard API): the character each key types alone on the PC's layout. */
type KeyboardApi = { getLayoutMap(): Promise<ReadonlyMap<string, string>> };

/** The PC's layout as the browser knows it; null where the browser does not say. */
function usePcLayoutsFromBrowser(refreshWith: unknown): KeyboardLayoutId[] | null {
  const [layouts, setLayouts] = useState<KeyboardLayoutId[] | null>(null);
  useEffect(() => {
    let current = true;
    const keyboard = (navigator as Navigator & { keyboard?: KeyboardApi }).keyboard;
    keyboard
      ?.getLayoutMap()
      .then((map) => {
        if (current) setLayouts(pcLayoutsFromMap(map));
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [refreshWith]);
  return layouts;
}

/** The check barcode, drawn by the same library as the tracking QR code (loaded only here). */
function CheckBarcode() {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    let current = true;
    void import('bwip-js/browser').then(({ toCanvas }) => {
      if (!current || !canvas.current) return;
      toCanvas(canvas.current, { bcid: 'code128', text: SCANNER_CHECK_TEXT, scale: 2, height: 12, includetext: true, textxalign: 'center', paddingwidth: 10, paddingheight: 4, backgroundcolor: 'FFFFFF' });
      // Drawn: what reads the screen (a scanner, a screenshot) may look now.
      canvas.current.dataset.drawn = 'true';
    });
    return () => {
      current = false;
    };
  }, []);
  return <canvas ref={canvas} className="scanner-check-barcode" data-testid="scanner-check-barcode" aria-label={SCANNER_CHECK_TEXT} />;
}

const layoutName = (t: TFunction, layout: KeyboardLayoutId) => t(`keyboardLayouts.${layout}`);
const layoutList = (t: TFunction, layouts: readonly KeyboardLayoutId[]) => layouts.map((layout) => layoutName(t, layout)).join(' / ');

/** The check's outcome in plain words, one line each: the scanner, the PC, and what that means for scans. */
function VerdictLines({ verdict, onUse }: { verdict: ScannerVerdict; onUse(layout: KeyboardLayoutId): void }) {
  const { t } = useTranslation();
  const [first, ...alike] = verdict.scanner === 'layout' ? verdict.layouts : [];
  const readsCorrectly = verdict.scanner === 'layout' ? verdict.readsCorrectly : verdict.scanner !== 'unknown';
  return (
    <div className="scanner-verdict" data-testid="scanner-verdict" data-reads={readsCorrectly ? 'correctly' : 'wrongly'} role="status">
      <p data-testid="scanner-verdict-scanner">
        <Icon name="check" size={20} /> {t('setup.scanner.works')}{' '}
        {verdict.scanner === 'alt-codes' && t('setup.scanner.altCodes')}
        {verdict.scanner === 'as-typed' && t('setup.scanner.asTyped')}
        {verdict.scanner === 'unknown' && t('setup.scanner.unknownLayout')}
        {first !== undefined &&
          (alike.length === 0 ? t('setup.scanner.typesAs', { layout: layoutName(t, first) }) : t('setup.scanner.typesAsAlike', { layout: layoutName(t, first), alike: layoutList(t, alike) }))}
      </p>
      <p data-testid="scanner-verdict-pc">{verdict.pc.length > 0 ? t('setup.scanner.pc', { layout: layoutList(t, verdict.pc) }) : t('setup.scanner.pcUnknown')}</p>
      {verdict.capsLock && <p data-testid="scanner-verdict-caps">{t('setup.scanner.capsLock')}</p>}
      {readsCorrectly ? (
        <p className="ok-text" data-testid="scanner-verdict-outcome">
          <Icon name="check" size={20} /> {t('setup.scanner.readsCorrectly')}
        </p>
      ) : (
        <>
          <p className="tone-text-danger" data-testid="scanner-verdict-outcome">
            <Icon name="stop" size={20} /> {first !== undefined ? t('setup.scanner.readsWrongly', { layout: layoutName(t, first) }) : t('setup.scanner.fixUnknown')}
          </p>
          {first !== undefined && (
            <button type="button" className="button button-primary" onClick={() => onUse(first)} data-testid="scanner-use-layout">
              {t('setup.scanner.useLayout', { layout: layoutName(t, first) })}
            </button>
          )}
        </>
      )}
    </div>
  );
}

/**
 * Setup › Scanner: the layout this bench's scanner types for, and the check barcode that proves
 * it. A scan of the check barcode anywhere on the station lands here (scan/use-keyboard.ts) and
 * is read through every layout the station knows.
 */
export function ScannerSection() {
  const { t } = useTranslation();
  const id = useId();
  const stores = useStores();
  const station = useStation();
  const chosen = useAppState((state) => state.settings?.scannerLayout ?? null);
  const check = useAppState((state) => state.scannerCheck);
  const printer = useAppState((state) => state.printers?.find((candidate) => candidate.defaultForSingle) ?? null);
  const pcFromBrowser = usePcLayoutsFromBrowser(check);
  const answer = useRef<HTMLDivElement>(null);

  const save = useCallback((change: SettingsChange) => stores.app.getState().saveSettings(change), [stores]);
  const [saveLayout, saving] = useAction(save);
  const print = useCallback((printerId: string) => station['printers.test']({ id: printerId, label: 'scanner-check' }), [station]);
  const [printCheck, printing] = useAction(print);

  // A check scanned from elsewhere brings the lead here: the answer is in view.
  useEffect(() => {
    if (check) answer.current?.scrollIntoView({ block: 'nearest' });
  }, [check]);

  const verdict = check && chosen ? scannerVerdict(check.keys, chosen, pcFromBrowser) : null;
  return (
    <section className="card setup-wide" aria-labelledby={`${id}-title`} data-testid="scanner-section">
      <h2 id={`${id}-title`}>{t('setup.scanner.title')}</h2>
      <div className="scanner-check">
        <div className="scanner-check-code">
          <CheckBarcode />
          <p className="small muted">{t('setup.scanner.scanThis')}</p>
          {printer && (
            <button type="button" className="button" disabled={printing.busy} onClick={() => void printCheck(printer.id)} data-testid="scanner-check-print">
              <Icon name="printer" size={20} /> {t('setup.scanner.print', { printer: printer.name })}
            </button>
          )}
          {printing.done && printer && (
            <p className="ok-text small" role="status" data-testid="scanner-check-printed">
              <Icon name="check" size={20} /> {t('setup.scanner.printed', { printer: printer.name })}
            </p>
          )}
          <CallError error={printing.error} />
          {chosen && (
            <div className="field">
              <label htmlFor={`${id}-layout`}>{t('setup.scanner.layout')}</label>
              <select
                id={`${id}-layout`}
                value={chosen}
                disabled={saving.busy}
                onChange={(event) => void saveLayout({ scannerLayout: event.target.value as KeyboardLayoutId })}
                data-testid="setting-scanner-layout"
              >
                {keyboardLayoutIds.map((layout) => (
                  <option key={layout} value={layout}>
                    {layoutName(t, layout)}
                  </option>
                ))}
              </select>
              <p className="small muted">{t('setup.scanner.layoutHint')}</p>
              <CallError error={saving.error} />
            </div>
          )}
        </div>
        <div className="scanner-check-answer" ref={answer}>
          {verdict ? (
            <VerdictLines key={check?.count} verdict={verdict} onUse={(layout) => void saveLayout({ scannerLayout: layout })} />
          ) : (
            <p className="muted" data-testid="scanner-verdict-waiting">
              {t('setup.scanner.waiting')}
            </p>
          )}
        </div>
      </div>
    </section>
  );
}
