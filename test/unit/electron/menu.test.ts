import { describe, expect, it } from 'vitest';
import { menuTemplate, type MenuActions, type MenuState } from '../../../src/main/electron/menu';

type Item = { label?: string; role?: string; type?: string; checked?: boolean; accelerator?: string; click?: () => void; submenu?: Item[] };

const state: MenuState = { platform: 'linux', productName: 'Packing Station', kiosk: false, launchAtLogin: false, updatesConfigured: false, developer: false };

function build(overrides: Partial<MenuState> = {}) {
  const called: string[] = [];
  const actions: MenuActions = {
    saveSupportBundle: () => called.push('bundle'),
    setKiosk: (enabled) => called.push(`kiosk:${enabled}`),
    setLaunchAtLogin: (enabled) => called.push(`login:${enabled}`),
    checkForUpdates: () => called.push('updates'),
    openLogsFolder: () => called.push('logs'),
    showAbout: () => called.push('about'),
    quit: () => called.push('quit'),
  };
  const items = menuTemplate({ ...state, ...overrides }, actions) as Item[];
  const all = (list: Item[]): Item[] => list.flatMap((item) => [item, ...all(item.submenu ?? [])]);
  return { items: all(items), called };
}

const find = (items: Item[], label: string) => items.find((item) => item.label === label);

describe('the menu', () => {
  it('has no reload and no developer tools in an installed app', () => {
    const roles = build().items.map((item) => item.role?.toLowerCase());
    expect(roles).not.toContain('reload');
    expect(roles).not.toContain('forcereload');
    expect(roles).not.toContain('toggledevtools');
    expect(build({ developer: true }).items.map((item) => item.role)).toContain('toggleDevTools');
  });

  it('saves a support bundle and leaves or enters kiosk mode by keyboard', () => {
    const { items, called } = build({ kiosk: true });
    find(items, 'Save Support Bundle…')?.click?.();
    const kiosk = find(items, 'Kiosk Mode');
    expect(kiosk).toMatchObject({ type: 'checkbox', checked: true, accelerator: 'CmdOrCtrl+Shift+K' });
    kiosk?.click?.();
    expect(called).toEqual(['bundle', 'kiosk:false']);
  });

  it('toggles start at login and offers an update check only when a feed is configured', () => {
    const off = build();
    find(off.items, 'Start at Login')?.click?.();
    expect(off.called).toEqual(['login:true']);
    expect(find(off.items, 'Check for Updates')).toBeUndefined();
    expect(find(build({ updatesConfigured: true }).items, 'Check for Updates')).toBeDefined();
  });
});
