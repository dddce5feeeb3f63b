/**
 * The Electron shell: builds the station through the composition root, opens one hardened window
 * on the app:// protocol and carries the contract over IPC. Every decision lives in the plain
 * modules beside this file (tested without Electron); this file only wires them to Electron.
 */
import { app, BrowserWindow, dialog, ipcMain, Menu, protocol, screen, session, shell } from 'electron';
import { arch, homedir, release, type } from 'node:os';
import { join } from 'node:path';
import { version } from '../../../package.json';
import { ipcChannels } from '../../shared/contract';
import { composeStation, productName, type Station } from '../composition';
import { isUnopenedStore, unopenedStation, type ServedStation } from '../contract/unopened-station';
import { createLogger, teeSinks, type Logger } from '../logging/logger';
import { logStrayErrors } from '../logging/stray-errors';
import { createRedactor } from '../logging/redaction';
import { createRotatingFileSink } from '../logging/rotating-file-sink';
import { contentSecurityPolicy } from '../security/content-security-policy';
import { journalPart, logsPart, settingsPart, versionsPart } from '../support/bundle-parts';
import { printJournalExport } from '../support/journal-export';
import { saveSupportBundle, supportBundleFileName } from '../support/support-bundle';
import { createUpdateCoordinator, type UpdateCoordinator } from '../updates/update-coordinator';
import { appId, autostartFileName } from './app-identity';
import { APP_ENTRY_URL, APP_SCHEME, appSchemePrivileges, createAppProtocolHandler } from './app-protocol';
import { loadDesktopSettings, saveDesktopSettings, type DesktopSettings } from './desktop-settings';
import { createElectronUpdaterPort } from './electron-updater-port';
import { bringToFront } from './focus-window';
import { createIpcCallHandler } from './ipc';
import { applyLaunchAtLogin } from './launch-at-login';
import { menuTemplate } from './menu';
import { hardenSession } from './session-hardening';
import { openStationWindow } from './station-window';
import { hardenWebContents } from './web-contents-hardening';
import { fitToDisplays, loadWindowState, trackWindowState } from './window-state';
import { errorText } from '../../shared/error-text';

// Both must happen before the app is ready: a privileged app:// scheme, and every renderer sandboxed.
protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: appSchemePrivileges }]);
app.enableSandbox();

if (!app.requestSingleInstanceLock()) {
  // Another station is running on this account: it comes to the front (see 'second-instance').
  app.quit();
} else {
  app.setAppUserModelId(appId);
  runDesktopApp().catch((error: unknown) => {
    process.stderr.write(`${productName} could not start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    dialog.showErrorBox(`${productName} could not start`, errorText(error));
    app.exit(1);
  });
}

async function runDesktopApp(): Promise<void> {
  const userData = app.getPath('userData');
  const paths = {
    logs: join(userData, 'logs'),
    desktopSettings: join(userData, 'desktop.json'),
    windowState: join(userData, 'window-state.json'),
  };

  const loaded = loadDesktopSettings(paths.desktopSettings);
  let desktop: DesktopSettings = loaded.settings;
  const redactor = createRedactor();
  const fileSink = createRotatingFileSink({
    directory: paths.logs,
    onError: (error) => process.stderr.write(`The log file could not be written: ${String(error)}\n`),
  });
  const logger = createLogger(
    teeSinks(fileSink.write, (line) => process.stdout.write(`${line}\n`)),
    { level: desktop.logLevel, redactor },
  );
  for (const problem of loaded.problems) logger.warn('desktop settings', { problem });
  const strayErrors = logStrayErrors(logger);

  await app.whenReady();
  logger.info('starting', { version, electron: process.versions.electron, packaged: app.isPackaged });

  hardenSession(session.defaultSession, logger);
  session.defaultSession.protocol.handle(
    APP_SCHEME,
    createAppProtocolHandler({ root: join(import.meta.dirname, '../renderer'), contentSecurityPolicy: contentSecurityPolicy() }),
  );
  app.on('web-contents-created', (_event, contents) =>
    hardenWebContents(contents, { allowedHosts: desktop.externalLinkHosts, openExternal: (url) => void shell.openExternal(url) }, logger),
  );

  // The manifest file dialog runs here, in the main process: the screen gets an opaque handle, never a path.
  let stationWindow: BrowserWindow | null = null;
  const pickManifestFile = async (): Promise<string | null> => {
    const options: Electron.OpenDialogOptions = {
      title: 'Import a manifest',
      properties: ['openFile'],
      filters: [{ name: 'Manifests (CSV, XLSX)', extensions: ['csv', 'xlsx', 'txt'] }],
    };
    const choice = stationWindow && !stationWindow.isDestroyed() ? await dialog.showOpenDialog(stationWindow, options) : await dialog.showOpenDialog(options);
    return choice.canceled ? null : (choice.filePaths[0] ?? null);
  };
  let station: Station;
  try {
    station = await composeStation({ dataDir: userData, host: 'electron', version, logger, pickManifestFile, strayErrors });
  } catch (error) {
    if (!isUnopenedStore(error)) throw error;
    logger.error('the station cannot open its data', { error });
    await showUnopenedStation(unopenedStation(error, logger), desktop.kiosk || process.argv.includes('--kiosk'), paths.windowState, logger);
    return;
  }
  await station.start({ webhooks: true, scale: true });
  // On the sandbox environment the embedded sandbox and virtual printer start with the app (so the
  // first scan is instant); station.close() at quit stops them.
  if (station.settings.environment() === 'sandbox') {
    station.host.readySandbox().catch((error: unknown) => logger.error('the embedded sandbox did not start', { error }));
  }
  const kiosk = desktop.kiosk || process.argv.includes('--kiosk');
  const window = createStationWindow(kiosk, paths.windowState);
  stationWindow = window;

  ipcMain.handle(
    ipcChannels.call,
    createIpcCallHandler({ dispatcher: station.dispatcher, isStationContents: (id) => !window.isDestroyed() && window.webContents.id === id, logger }),
  );
  station.events.subscribe((name, payload) => {
    if (!window.isDestroyed()) window.webContents.send(ipcChannels.event, name, payload);
  });
  app.on('second-instance', () => bringToFront(window));
  watchRenderer(window, logger);

  const updates = createUpdateCoordinator({
    settings: desktop.updates,
    createUpdater: (feedUrl, channel) => createElectronUpdaterPort(feedUrl, channel, logger),
    activity: station.printActivity,
    logger,
    notify: (level, message, notice) => station.events.emit('app.notice', { level, message, ...notice }),
  });
  if (app.isPackaged) updates.start();
  else logger.info('updates are checked only in an installed app');

  const applyLoginItem = (enabled: boolean) => {
    if (!app.isPackaged) return logger.info('start at login is set only in an installed app');
    applyLaunchAtLogin(enabled, {
      platform: process.platform,
      setLoginItemSettings: (settings) => app.setLoginItemSettings(settings),
      autostartDir: join(process.env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'autostart'),
      executable: process.env.APPIMAGE ?? process.execPath,
      productName,
      desktopFileName: autostartFileName,
    });
  };
  try {
    // Re-applied at each start, so the entry follows the app when an update moved it.
    if (desktop.launchAtLogin) applyLoginItem(true);
  } catch (error) {
    logger.warn('start at login could not be set', { error });
  }

  const updateDesktop = (change: Partial<DesktopSettings>) => {
    desktop = { ...desktop, ...change };
    try {
      saveDesktopSettings(paths.desktopSettings, desktop);
    } catch (error) {
      logger.warn('desktop settings could not be saved', { error });
    }
    refreshMenu();
  };

  const refreshMenu = () => {
    const template = menuTemplate(
      {
        platform: process.platform,
        productName,
        kiosk: window.isKiosk(),
        launchAtLogin: desktop.launchAtLogin,
        updatesConfigured: desktop.updates.feedUrl !== undefined,
        developer: !app.isPackaged,
      },
      {
        saveSupportBundle: () => void saveBundle(),
        setKiosk: (enabled) => {
          window.setKiosk(enabled);
          window.setMenuBarVisibility(!enabled);
          updateDesktop({ kiosk: enabled });
        },
        setLaunchAtLogin: (enabled) => {
          try {
            applyLoginItem(enabled);
            updateDesktop({ launchAtLogin: enabled });
          } catch (error) {
            logger.warn('start at login could not be set', { error });
            void dialog.showMessageBox(window, { type: 'warning', message: 'Start at login could not be set.', detail: String(error) });
          }
        },
        checkForUpdates: () => void checkForUpdates(updates, window),
        openLogsFolder: () => void shell.openPath(paths.logs),
        showAbout: () =>
          void dialog.showMessageBox(window, { type: 'info', title: `About ${productName}`, message: `${productName} ${version}`, detail: describeVersions() }),
        quit: () => app.quit(),
      },
    );
    Menu.setApplicationMenu(Menu.buildFromTemplate(template));
  };

  const saveBundle = async () => {
    const now = new Date();
    const choice = await dialog.showSaveDialog(window, {
      title: 'Save support bundle',
      defaultPath: join(app.getPath('documents'), supportBundleFileName(station.settings.stationName(), now)),
      filters: [{ name: 'Zip archive', extensions: ['zip'] }],
    });
    if (choice.canceled || !choice.filePath) return;
    try {
      const manifest = await saveSupportBundle(choice.filePath, {
        product: `${productName} ${version}`,
        redactor,
        parts: [
          logsPart(() => fileSink.files()),
          settingsPart(() => ({ station: { environment: station.settings.environment(), stationName: station.settings.stationName() }, desktop }), redactor),
          journalPart(printJournalExport(station.services.printing.journal.history)),
          versionsPart(versions),
        ],
      });
      logger.info('support bundle saved', { file: choice.filePath, parts: manifest.parts.map((part) => part.name) });
      shell.showItemInFolder(choice.filePath);
    } catch (error) {
      logger.error('support bundle could not be saved', { error });
      void dialog.showMessageBox(window, { type: 'error', message: 'The support bundle could not be saved.', detail: String(error) });
    }
  };

  refreshMenu();
  window.on('enter-full-screen', refreshMenu);
  window.on('leave-full-screen', refreshMenu);

  let closed = false;
  let closing = false;
  app.on('window-all-closed', () => app.quit());
  app.on('before-quit', (event) => {
    if (closed) return;
    event.preventDefault();
    if (closing) return;
    closing = true;
    void shutDown(station, updates, logger)
      .finally(() => {
        fileSink.close();
        closed = true;
        app.quit();
      });
  });

  await window.loadURL(APP_ENTRY_URL);
}

/** A newer station's data: the window shows why nothing opened and what to do (update this bench), in the bench's language. */
async function showUnopenedStation(unopened: ServedStation, kiosk: boolean, windowStateFile: string, logger: Logger): Promise<void> {
  const window = createStationWindow(kiosk, windowStateFile);
  ipcMain.handle(
    ipcChannels.call,
    createIpcCallHandler({ dispatcher: unopened.dispatcher, isStationContents: (id) => !window.isDestroyed() && window.webContents.id === id, logger }),
  );
  app.on('window-all-closed', () => app.quit());
  await window.loadURL(APP_ENTRY_URL);
}

function createStationWindow(kiosk: boolean, windowStateFile: string): BrowserWindow {
  const primary = screen.getPrimaryDisplay();
  const displays = [primary, ...screen.getAllDisplays().filter((display) => display.id !== primary.id)];
  const state = fitToDisplays(loadWindowState(windowStateFile), displays.map((display) => display.workArea));
  const window = openStationWindow(BrowserWindow, {
    preloadPath: join(import.meta.dirname, '../preload/index.cjs'),
    title: productName,
    state,
    kiosk,
    devTools: !app.isPackaged,
  });
  if (state.maximized && !kiosk) window.maximize();
  if (state.fullScreen && !kiosk) window.setFullScreen(true);
  trackWindowState(window, windowStateFile);
  window.once('ready-to-show', () => window.show());
  return window;
}

/** A crashed page on a bench must not stay blank: reload it, unless it keeps crashing. */
function watchRenderer(window: BrowserWindow, logger: Logger): void {
  const crashes: number[] = [];
  window.webContents.on('render-process-gone', (_event, details) => {
    logger.error('the screen stopped', { reason: details.reason, exitCode: details.exitCode });
    if (details.reason === 'clean-exit' || window.isDestroyed()) return;
    const now = Date.now();
    crashes.push(now);
    while (crashes.length && now - (crashes[0] ?? now) > 60_000) crashes.shift();
    if (crashes.length <= 3) void window.loadURL(APP_ENTRY_URL);
  });
  window.webContents.on('unresponsive', () => logger.warn('the screen is not responding'));
}

async function checkForUpdates(updates: UpdateCoordinator, window: BrowserWindow): Promise<void> {
  const outcome = await updates.checkNow();
  const message =
    outcome === 'off'
      ? 'Updates are off: no update feed is configured.'
      : outcome === 'failed'
        ? 'The update feed could not be reached. The details are in the log.'
        : updates.pendingVersion
          ? `Version ${updates.pendingVersion} will be installed when no labels are printing.`
          : 'The update check has started; a new version downloads in the background.';
  await dialog.showMessageBox(window, { type: outcome === 'failed' ? 'warning' : 'info', message });
}

function versions(): Record<string, string> {
  return {
    app: version,
    electron: process.versions.electron ?? '',
    chrome: process.versions.chrome ?? '',
    node: process.versions.node,
    v8: process.versions.v8,
    os: `${type()} ${release()}`,
    platform: process.platform,
    arch: arch(),
    locale: app.getLocale(),
    packaged: String(app.isPackaged),
  };
}

function describeVersions(): string {
  return Object.entries(versions())
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
}

async function shutDown(station: Station, updates: UpdateCoordinator, logger: Logger): Promise<void> {
  updates.stop();
  try {
    await station.close();
  } catch (error) {
    logger.error('the station did not close cleanly', { error });
  }
  logger.info('stopped');
}
