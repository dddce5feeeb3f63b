/**
 * The Electron shell: builds the station through the composition root, opens one hardened
 * window and carries the contract over IPC. Everything else lives in plain Node modules.
 */
import { app, BrowserWindow, ipcMain } from 'electron';
import { join } from 'node:path';
import { version } from '../../../package.json';
import { ipcChannels } from '../../shared/contract';
import { composeStation, productName, type Station } from '../composition';
import { createLogger } from '../logging/logger';

let station: Station | null = null;

async function start(): Promise<void> {
  const logger = createLogger((line) => process.stdout.write(`${line}\n`));
  station = await composeStation({ dataDir: app.getPath('userData'), host: 'electron', version, logger });
  const running = station;

  const window = new BrowserWindow({
    width: 1280,
    height: 800,
    title: productName,
    show: false,
    webPreferences: {
      preload: join(import.meta.dirname, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    },
  });

  ipcMain.handle(ipcChannels.call, (event, name: unknown, input: unknown) => {
    if (event.senderFrame !== window.webContents.mainFrame) {
      return { ok: false, error: { code: 'UNKNOWN_CALL', message: 'Calls are accepted from the station window only.' } };
    }
    return running.dispatcher.dispatch(name, input, { host: 'electron' });
  });
  running.events.subscribe((name, payload) => {
    if (!window.isDestroyed()) window.webContents.send(ipcChannels.event, name, payload);
  });

  window.webContents.on('will-navigate', (event) => event.preventDefault());
  window.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
  window.once('ready-to-show', () => window.show());
  await window.loadFile(join(import.meta.dirname, '../renderer/index.html'));
}

app.whenReady().then(start, (error: unknown) => {
  process.stderr.write(`Packing Station could not start: ${String(error)}\n`);
  app.exit(1);
});

app.on('window-all-closed', () => {
  void station?.close().finally(() => app.quit());
});
