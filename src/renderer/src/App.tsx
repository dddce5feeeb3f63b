import { lazy, Suspense, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { stationNameWords } from './i18n/station-name';
import { EnvironmentBadge } from './components/EnvironmentBadge';
import { Icon } from './components/Icon';
import { NavBar } from './components/NavBar';
import { Notices } from './components/Notices';
import { ConnectionBanner } from './components/ConnectionBanner';
import { StoreOfflineBanner } from './components/StoreOfflineBanner';
import { offlineMergedNotices } from './store-offline/merged-notices';
import { floorActedNotice } from './floor/acted-notice';
import type { ConnectionState } from './connection-state';
import { errorText } from './supervision/error-words';
import { PrinterStatusArea, type PrinterStatusView } from './components/PrinterStatusArea';
import { UnfinishedRunOffer } from './components/UnfinishedRuns';
import { PullNotices } from './supervision/PullNotices';
import { OperatorBadge, OperatorDialog, OperatorPrompt } from './operator/OperatorSignIn';
import { ScanCueView } from './scan/ScanCueView';
import { useStationKeyboard } from './scan/use-keyboard';
import ScanScreen from './screens/ScanScreen';
import { useStation } from './station-context';
import { printerViews } from './state/app-store';
import { roleHolder } from '../../shared/printer-roles';
import type { PrinterData } from '../../shared/contract/printers';
import { useAppState, useScanState, useShiftState, useStores } from './state/stores-context';

// The scan screen is in the first bundle; the others load when first opened.
const ShiftStartScreen = lazy(() => import('./screens/ShiftStartScreen'));
const PrintersScreen = lazy(() => import('./screens/PrintersScreen'));
const SetupScreen = lazy(() => import('./screens/SetupScreen'));
const HistoryScreen = lazy(() => import('./screens/HistoryScreen'));
const FloorScreen = lazy(() => import('./screens/FloorScreen'));

/** How full the top bar is: one chip, two, or more printers than chips (one chip stands for the rest). */
function topBarCrowding(chips: number, printers: number): 'few' | 'many' | 'crowded' {
  if (printers > 2) return 'crowded';
  return chips > 1 ? 'many' : 'few';
}

/**
 * The top bar's order: the printer for scans, then the one for runs, then the rest as listed, so
 * the ones a packer and a lead print to keep their chips when the bar has no room for every one.
 */
function printersForScansFirst(views: PrinterStatusView[] | null, printers: readonly PrinterData[] | null): PrinterStatusView[] | null {
  if (!views || !printers) return views;
  const rank = (id: string) => (roleHolder(printers, 'single')?.id === id ? 0 : roleHolder(printers, 'bundles')?.id === id ? 1 : 2);
  return [...views].sort((a, b) => rank(a.id) - rank(b.id));
}

/** How often idle printers are asked for their status. */
const printerPollMs = 20_000;

/** Set on <html> once scans are captured; tests and the start-up benchmark wait for it. */
export const readyMark = 'station:ready-to-scan';

export function App({ connection }: { connection?: ConnectionState | undefined } = {}) {
  const { t, i18n } = useTranslation();
  const station = useStation();
  const stores = useStores();
  const info = useAppState((state) => state.info);
  const infoError = useAppState((state) => state.infoError);
  const screen = useAppState((state) => state.screen);
  const notices = useAppState((state) => state.notices);
  const printerList = useAppState((state) => state.printers);
  const printerStates = useAppState((state) => state.printerStates);
  const shiftRun = useShiftState((state) => state.run);
  const shiftProgress = useShiftState((state) => state.progress);
  const printers = useMemo(() => {
    const views = printersForScansFirst(printerViews({ printers: printerList, printerStates }), printerList);
    // A run paused by the lead leaves labels waiting on its printer, which the queue calls printing:
    // the bar says paused, as the run does.
    const runState = shiftProgress && shiftProgress.runId === shiftRun?.runId ? shiftProgress.state : shiftRun?.state;
    if (!views || runState !== 'paused' || !shiftRun) return views;
    return views.map((view) => (view.id === shiftRun.printerId && (view.state === 'printing' || view.state === 'ready') ? { ...view, state: 'paused' as const } : view));
  }, [printerList, printerStates, shiftRun, shiftProgress]);
  // Printers, but none prints a scan: the bar says so rather than show them Ready.
  const noPrinterForScans = printerList !== null && printerList.length > 0 && roleHolder(printerList, 'single') === null;
  const operator = useAppState((state) => state.settings?.operator ?? null);
  const operatorNeeded = useScanState((state) => state.operatorNeeded);
  // "Later" puts the sign-in off until someone presses the badge (a reprint still asks).
  const [signInLater, setSignInLater] = useState(false);

  useEffect(() => {
    const app = stores.app.getState();
    void app.refresh();
    const unsubscribe = [
      station.on('app.notice', (notice) => stores.app.getState().addNotice(notice)),
      station.on('printers.state', (event) => stores.app.getState().applyPrinterState(event)),
      // A lead acted on this bench from the floor at another bench: who, what, from where.
      station.on('floor.actedHere', (command) => stores.app.getState().addNotice(floorActedNotice(command))),
      station.on('printers.roll', (event) => stores.app.getState().applyPrinterRoll(event)),
      station.on('store.offlineMerged', (merged) => {
        for (const notice of offlineMergedNotices(merged)) stores.app.getState().addNotice(notice);
      }),
      // The bench's scale: a stable weight fills the open ship panel's weight.
      stores.scale.getState().follow(),
      stores.scale.getState().onWeighed((grams) => stores.ship.getState().weighed(grams)),
      // A parcel put on the scale before its slip was scanned: the panel opens with that weight.
      stores.ship.subscribe((state, previous) => {
        const grams = stores.scale.getState().weightNow();
        if (state.panel.state === 'ready' && previous.panel.state === 'closed' && grams !== null) stores.ship.getState().weighed(grams);
      }),
    ];
    // Events tell what the print queue sees; an idle printer switched off is only noticed by asking.
    const poll = setInterval(() => {
      if (document.visibilityState === 'visible') void stores.app.getState().pollPrinters();
    }, printerPollMs);
    return () => {
      clearInterval(poll);
      for (const stop of unsubscribe) stop();
    };
  }, [station, stores]);

  useEffect(() => {
    document.documentElement.lang = i18n.language;
  }, [i18n.language]);

  // A run interrupted by a restart (or still printing behind a reloaded page) is offered as soon
  // as the station answers, and again for the environment switched to.
  const environmentNow = info?.environment;
  useEffect(() => {
    if (environmentNow) void stores.shift.getState().loadUnfinished();
  }, [environmentNow, stores]);

  // Back after the web host was restarted: ask again what the station is and what its printers do.
  const onStationBack = useCallback(() => {
    void stores.app.getState().refresh();
    void stores.app.getState().pollPrinters();
  }, [stores]);

  const markReady = useCallback(() => {
    if (document.documentElement.dataset.scanReady) return;
    document.documentElement.dataset.scanReady = 'true';
    performance.mark(readyMark);
  }, []);
  useStationKeyboard(markReady);

  // Each screen opens at its top (its title and first controls), never at the scroll of the one before.
  const main = useRef<HTMLElement>(null);
  useLayoutEffect(() => {
    if (!main.current) return;
    main.current.scrollTop = 0;
    main.current.scrollLeft = 0;
  }, [screen]);

  // The station answers, but will not open data a newer station wrote: nothing else can work, so
  // the page shows only what to do (update this bench), not "unreachable" nor empty screens.
  if (infoError?.code === 'STORE_NEWER_THAN_STATION') {
    const { title, action } = errorText(infoError, t, i18n.language);
    return (
      <div className="app" data-testid="app">
        <main className="main" id="main">
          <div role="alert" className="connection-error store-newer" data-testid="store-newer">
            <h1>{title}</h1>
            <p>{action}</p>
          </div>
        </main>
      </div>
    );
  }

  const environment = info?.environment;
  return (
    <div className={`app ${environment ? `env-${environment}` : ''}`} data-testid="app">
      <header className="topbar" data-printers={topBarCrowding((printers?.length ?? 0) + (noPrinterForScans ? 1 : 0), printers?.length ?? 0)}>
        <div className="brand">
          <span className="brand-name">{info?.name ?? 'Packing Station'}</span>
          {info && (
            <span className="brand-station" title={stationNameWords(info.stationName, t)} data-testid="topbar-station">
              {stationNameWords(info.stationName, t)}
            </span>
          )}
        </div>
        {environment && <EnvironmentBadge environment={environment} />}
        {operator !== null && (
          <OperatorBadge
            name={operator}
            onSignIn={() => setSignInLater(false)}
            onSignOut={() => {
              setSignInLater(false);
              void stores.app.getState().saveSettings({ operator: '' });
            }}
          />
        )}
        <PrinterStatusArea printers={printers} noPrinterForScans={noPrinterForScans} onOpenPrinters={() => stores.app.getState().navigate('printers')} />
      </header>
      <NavBar current={screen} onNavigate={(id) => stores.app.getState().navigate(id)} />
      <div className="app-messages">
        {connection && <ConnectionBanner connection={connection} onBack={onStationBack} />}
        <StoreOfflineBanner />
        {operator === '' && !signInLater && <OperatorPrompt onLater={() => setSignInLater(true)} />}
        <Notices notices={notices} onDismiss={(id) => stores.app.getState().dismissNotice(id)} />
        <UnfinishedRunOffer />
        <PullNotices />
      </div>
      <main className="main" id="main" ref={main}>
        {infoError && (
          <p role="alert" className="connection-error">
            <Icon name="plug" size={32} /> {t('app.unreachable')}: {errorText(infoError, t, i18n.language).title}
          </p>
        )}
        {!info && !infoError && <p className="muted">{t('app.connecting')}</p>}
        <Suspense fallback={<p className="muted">{t('app.connecting')}</p>}>
          {screen === 'scan' && <ScanScreen />}
          {screen === 'shift' && <ShiftStartScreen />}
          {screen === 'printers' && <PrintersScreen />}
          {screen === 'setup' && <SetupScreen />}
          {screen === 'history' && <HistoryScreen />}
          {screen === 'floor' && <FloorScreen />}
        </Suspense>
      </main>
      <ScanCueView />
      {operatorNeeded && <OperatorDialog onCancel={() => stores.scan.getState().dropHeldReprint()} />}
      <footer className="footer">
        {info && (
          <dl className="footer-facts" data-testid="app-info">
            <dt>{t('footer.station')}</dt>
            <dd data-testid="station-name">{stationNameWords(info.stationName, t)}</dd>
            <dt>{t('footer.version')}</dt>
            <dd data-testid="version">{info.version}</dd>
            <dt>{t('footer.host')}</dt>
            <dd data-testid="host">{info.host === 'electron' ? t('footer.hostElectron') : t('footer.hostWeb')}</dd>
          </dl>
        )}
        <p className="footer-keys">{t('footer.keys')}</p>
      </footer>
    </div>
  );
}
