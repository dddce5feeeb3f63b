import type { MenuItemConstructorOptions } from 'electron';

export interface MenuState {
  platform: NodeJS.Platform;
  productName: string;
  kiosk: boolean;
  launchAtLogin: boolean;
  updatesConfigured: boolean;
  /** Developer tools and reload are offered only in an unpackaged (developer) build. */
  developer: boolean;
}

export interface MenuActions {
  saveSupportBundle(): void;
  setKiosk(enabled: boolean): void;
  setLaunchAtLogin(enabled: boolean): void;
  checkForUpdates(): void;
  openLogsFolder(): void;
  showAbout(): void;
  quit(): void;
}

/**
 * The minimal menu: what a bench operator or IT needs and nothing that could lose the screen's
 * state by accident (no reload, no developer tools in a packaged app). Its accelerators also work
 * in kiosk mode, where the menu bar is hidden: Ctrl+Shift+K leaves kiosk mode.
 */
export function menuTemplate(state: MenuState, actions: MenuActions): MenuItemConstructorOptions[] {
  const mac = state.platform === 'darwin';
  const station: MenuItemConstructorOptions = {
    label: mac ? state.productName : 'Station',
    submenu: [
      { label: `About ${state.productName}`, click: () => actions.showAbout() },
      { type: 'separator' },
      { label: 'Save Support Bundle…', accelerator: 'CmdOrCtrl+Shift+S', click: () => actions.saveSupportBundle() },
      { label: 'Open Logs Folder', click: () => actions.openLogsFolder() },
      ...(state.updatesConfigured ? [{ label: 'Check for Updates', click: () => actions.checkForUpdates() }] : []),
      { type: 'separator' },
      {
        label: 'Kiosk Mode',
        type: 'checkbox',
        checked: state.kiosk,
        accelerator: 'CmdOrCtrl+Shift+K',
        click: () => actions.setKiosk(!state.kiosk),
      },
      {
        label: 'Start at Login',
        type: 'checkbox',
        checked: state.launchAtLogin,
        click: () => actions.setLaunchAtLogin(!state.launchAtLogin),
      },
      { type: 'separator' },
      { label: mac ? `Quit ${state.productName}` : 'Quit', accelerator: 'CmdOrCtrl+Q', click: () => actions.quit() },
    ],
  };
  const edit: MenuItemConstructorOptions = {
    label: 'Edit',
    submenu: [{ role: 'undo' }, { role: 'redo' }, { type: 'separator' }, { role: 'cut' }, { role: 'copy' }, { role: 'paste' }, { role: 'selectAll' }],
  };
  const view: MenuItemConstructorOptions = {
    label: 'View',
    submenu: [
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { role: 'resetZoom' },
      ...(state.kiosk ? [] : [{ role: 'togglefullscreen' } as MenuItemConstructorOptions]),
      ...(state.developer ? [{ type: 'separator' } as const, { role: 'reload' } as const, { role: 'toggleDevTools' } as const] : []),
    ],
  };
  return [station, edit, view];
}
