import { describe, expect, it } from 'vitest';
import { bringToFront } from '../../../src/main/electron/focus-window';
import { quoteExecArgument, autostartEntry } from '../../../src/main/electron/launch-at-login';
import { fitToDisplays } from '../../../src/main/electron/window-state';

const laptop = { x: 0, y: 0, width: 1366, height: 728 };
const external = { x: 1366, y: 0, width: 1920, height: 1040 };

describe('a remembered window on the displays there are now', () => {
  it('stays where it was when that place is still on a display', () => {
    const state = { x: 1500, y: 100, width: 1280, height: 800, maximized: false, fullScreen: false };
    expect(fitToDisplays(state, [laptop, external])).toEqual(state);
  });

  it('comes back to the first display, shrunk to fit, when its monitor was unplugged', () => {
    const state = { x: 1500, y: 100, width: 1800, height: 1000, maximized: true, fullScreen: false };
    expect(fitToDisplays(state, [laptop])).toEqual({ x: 0, y: 0, width: 1366, height: 728, maximized: true, fullScreen: false });
  });

  it('is centred on the first display when no place was remembered', () => {
    expect(fitToDisplays({ width: 1280, height: 600, maximized: false, fullScreen: false }, [laptop])).toMatchObject({ x: 43, y: 64 });
  });
});

describe('a second launch', () => {
  it('restores, shows and focuses the running window', () => {
    const calls: string[] = [];
    const window = {
      isDestroyed: () => false,
      isMinimized: () => true,
      restore: () => calls.push('restore'),
      show: () => calls.push('show'),
      focus: () => calls.push('focus'),
    };
    expect(bringToFront(window)).toBe(true);
    expect(calls).toEqual(['restore', 'show', 'focus']);
    expect(bringToFront(null)).toBe(false);
  });
});

describe('the Linux autostart entry', () => {
  it('quotes the executable as the Desktop Entry spec asks', () => {
    expect(quoteExecArgument('/opt/Packing Station/packing-station')).toBe('"/opt/Packing Station/packing-station"');
    expect(quoteExecArgument('/home/a$b/`x`/"q"\\.AppImage')).toBe('"/home/a\\$b/\\`x\\`/\\"q\\"\\\\.AppImage"');
    expect(quoteExecArgument('/tmp/100%.AppImage')).toBe('"/tmp/100%%.AppImage"');
  });

  it('starts the app when the desktop session starts', () => {
    const entry = autostartEntry('Packing Station', '/opt/app');
    expect(entry).toContain('[Desktop Entry]\nType=Application\nName=Packing Station\nExec="/opt/app"\n');
    expect(entry).toContain('X-GNOME-Autostart-enabled=true');
  });
});
