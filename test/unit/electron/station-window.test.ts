import { describe, expect, it } from 'vitest';
import { openStationWindow } from '../../../src/main/electron/station-window';

class RecordingBrowserWindow {
  readonly options: Record<string, unknown>;
  constructor(options: object) {
    this.options = options as Record<string, unknown>;
  }
}

const open = (overrides: { devTools?: boolean; kiosk?: boolean } = {}) =>
  openStationWindow(RecordingBrowserWindow, {
    preloadPath: '/app/out/preload/index.cjs',
    title: 'Packing Station',
    state: { width: 1280, height: 800, maximized: false, fullScreen: false },
    kiosk: overrides.kiosk ?? false,
    devTools: overrides.devTools ?? false,
  }).options;

describe('the station window', () => {
  it('is opened with exactly the hardened webPreferences', () => {
    expect(open().webPreferences).toStrictEqual({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      plugins: false,
      enableWebSQL: false,
      spellcheck: false,
      safeDialogs: true,
      disableBlinkFeatures: 'Auxclick',
      devTools: false,
    });
  });

  it('never enables Blink features and offers developer tools only when asked (unpackaged builds)', () => {
    expect(open().webPreferences).not.toHaveProperty('enableBlinkFeatures');
    expect((open({ devTools: true }).webPreferences as Record<string, unknown>).devTools).toBe(true);
  });

  it('starts hidden (shown when ready) and in kiosk mode when the bench is set to it', () => {
    expect(open()).toMatchObject({ show: false, kiosk: false, autoHideMenuBar: false, width: 1280, height: 800 });
    expect(open({ kiosk: true })).toMatchObject({ kiosk: true, autoHideMenuBar: true });
  });

  it('reopens where it was left', () => {
    const options = openStationWindow(RecordingBrowserWindow, {
      preloadPath: 'p',
      title: 't',
      state: { x: 10, y: 20, width: 1000, height: 700, maximized: false, fullScreen: false },
      kiosk: false,
      devTools: false,
    }).options;
    expect(options).toMatchObject({ x: 10, y: 20, width: 1000, height: 700 });
  });
});
