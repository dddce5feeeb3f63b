import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface LaunchAtLoginHost {
  platform: NodeJS.Platform;
  /** Electron's app.setLoginItemSettings (Windows and macOS). */
  setLoginItemSettings(settings: { openAtLogin: boolean; path?: string }): void;
  /** The XDG autostart folder on Linux, normally ~/.config/autostart. */
  autostartDir: string;
  /** What to start: the AppImage file when run from one, else the executable. */
  executable: string;
  productName: string;
  /** File name of the autostart entry, e.g. packing-station.desktop. */
  desktopFileName: string;
}

/**
 * Starts the station when the operator logs in, or stops doing so. Windows and macOS have it in
 * Electron; Linux desktops read an XDG autostart entry, which Electron does not write, so it is
 * written here.
 */
export function applyLaunchAtLogin(enabled: boolean, host: LaunchAtLoginHost): void {
  if (host.platform === 'win32' || host.platform === 'darwin') {
    host.setLoginItemSettings(host.platform === 'win32' ? { openAtLogin: enabled, path: host.executable } : { openAtLogin: enabled });
    return;
  }
  const file = join(host.autostartDir, host.desktopFileName);
  if (!enabled) {
    rmSync(file, { force: true });
    return;
  }
  mkdirSync(host.autostartDir, { recursive: true });
  writeFileSync(file, autostartEntry(host.productName, host.executable));
}

export function autostartEntry(productName: string, executable: string): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    `Name=${productName.replace(/[\r\n]/g, ' ')}`,
    `Exec=${quoteExecArgument(executable)}`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

/** Quoting of the Desktop Entry spec: inside double quotes, ", `, $ and \ take a backslash. */
export function quoteExecArgument(argument: string): string {
  const escaped = argument.replace(/[\r\n]/g, ' ').replace(/(["`$\\])/g, '\\$1').replace(/%/g, '%%');
  return `"${escaped}"`;
}
