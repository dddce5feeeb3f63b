import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultDesktopSettings, loadDesktopSettings, saveDesktopSettings } from '../../../src/main/electron/desktop-settings';
import { applyLaunchAtLogin } from '../../../src/main/electron/launch-at-login';
import { defaultWindowState, loadWindowState, trackWindowState, type TrackedWindow } from '../../../src/main/electron/window-state';
import { waitUntil } from '../../support/wait-until';

const folders: string[] = [];
const tempFolder = () => {
  const folder = mkdtempSync(join(tmpdir(), 'station-shell-'));
  folders.push(folder);
  return folder;
};
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe('desktop.json', () => {
  it('gives the defaults when there is no file: updates off, no kiosk, no start at login', () => {
    const { settings, problems } = loadDesktopSettings(join(tempFolder(), 'desktop.json'));
    expect(settings).toEqual({
      kiosk: false,
      launchAtLogin: false,
      externalLinkHosts: [],
      updates: { channel: 'latest', checkEveryHours: 4, installAfterIdleMinutes: 2 },
      logLevel: 'info',
    });
    expect(problems).toEqual([]);
  });

  it('reads what an IT admin wrote and keeps what a menu toggle saved', () => {
    const file = join(tempFolder(), 'desktop.json');
    writeFileSync(file, JSON.stringify({ kiosk: true, externalLinkHosts: ['Track.Example.com'], updates: { feedUrl: 'https://updates.example.com/station' } }));
    const { settings } = loadDesktopSettings(file);
    expect(settings).toMatchObject({ kiosk: true, externalLinkHosts: ['track.example.com'], updates: { feedUrl: 'https://updates.example.com/station' } });
    saveDesktopSettings(file, { ...settings, launchAtLogin: true });
    expect(loadDesktopSettings(file).settings).toEqual({ ...settings, launchAtLogin: true });
  });

  it('keeps the valid settings of a file with mistakes and says what was wrong', () => {
    const file = join(tempFolder(), 'desktop.json');
    writeFileSync(file, JSON.stringify({ kiosk: 'yes', launchAtLogin: true, updates: { feedUrl: 'http://updates.example.com/' }, colour: 'red' }));
    const { settings, problems } = loadDesktopSettings(file);
    expect(settings).toMatchObject({ kiosk: false, launchAtLogin: true, updates: { channel: 'latest' } });
    expect(settings.updates.feedUrl).toBeUndefined();
    expect(problems.join('\n')).toContain('"kiosk"');
    expect(problems.join('\n')).toContain('"updates.feedUrl" must be an https:// address');
    expect(problems.join('\n')).toContain('unknown setting "colour"');
  });

  it('starts with the defaults from a file that is not JSON', () => {
    const file = join(tempFolder(), 'desktop.json');
    writeFileSync(file, '{ kiosk: true,');
    const { settings, problems } = loadDesktopSettings(file);
    expect(settings).toEqual(defaultDesktopSettings());
    expect(problems[0]).toContain('is not valid JSON');
  });
});

class FakeWindow implements TrackedWindow {
  listeners = new Map<string, (() => void)[]>();
  bounds = { x: 100, y: 50, width: 1100, height: 700 };
  maximized = false;
  on(event: string, listener: () => void) {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  emit(event: string) {
    for (const listener of this.listeners.get(event) ?? []) listener();
  }
  getNormalBounds() {
    return this.bounds;
  }
  isMaximized() {
    return this.maximized;
  }
  isFullScreen() {
    return false;
  }
  isDestroyed() {
    return false;
  }
}

describe('the remembered window', () => {
  it('is saved when the window closes and read back at the next start', () => {
    const file = join(tempFolder(), 'window-state.json');
    expect(loadWindowState(file)).toEqual(defaultWindowState);
    const window = new FakeWindow();
    trackWindowState(window, file);
    window.bounds = { x: 200, y: 80, width: 1024, height: 768 };
    window.maximized = true;
    window.emit('close');
    expect(loadWindowState(file)).toEqual({ x: 200, y: 80, width: 1024, height: 768, maximized: true, fullScreen: false });
  });

  it('is saved shortly after a move, once', async () => {
    const file = join(tempFolder(), 'window-state.json');
    const window = new FakeWindow();
    trackWindowState(window, file, { delayMs: 20 });
    window.emit('move');
    window.emit('resize');
    expect(existsSync(file)).toBe(false);
    await waitUntil(() => existsSync(file), 'the window state saved', 5000, 5);
    expect(loadWindowState(file)).toMatchObject({ x: 100, y: 50, width: 1100, height: 700 });
  });

  it('falls back to the default size from a damaged or absurd file', () => {
    const file = join(tempFolder(), 'window-state.json');
    writeFileSync(file, JSON.stringify({ width: 50, height: 'tall' }));
    expect(loadWindowState(file)).toEqual(defaultWindowState);
  });
});

describe('start at login', () => {
  const host = (platform: NodeJS.Platform, autostartDir: string, calls: unknown[] = []) => ({
    platform,
    setLoginItemSettings: (settings: unknown) => calls.push(settings),
    autostartDir,
    executable: '/opt/Packing Station/packing-station',
    productName: 'Packing Station',
    desktopFileName: 'packing-station.desktop',
  });

  it('writes and removes an XDG autostart entry on Linux', () => {
    const dir = join(tempFolder(), 'autostart');
    applyLaunchAtLogin(true, host('linux', dir));
    const entry = readFileSync(join(dir, 'packing-station.desktop'), 'utf8');
    expect(entry).toContain('Exec="/opt/Packing Station/packing-station"');
    applyLaunchAtLogin(false, host('linux', dir));
    expect(existsSync(join(dir, 'packing-station.desktop'))).toBe(false);
  });

  it("uses Electron's login items on Windows and macOS", () => {
    const calls: unknown[] = [];
    applyLaunchAtLogin(true, host('win32', '/unused', calls));
    applyLaunchAtLogin(false, host('darwin', '/unused', calls));
    expect(calls).toEqual([{ openAtLogin: true, path: '/opt/Packing Station/packing-station' }, { openAtLogin: false }]);
  });
});
