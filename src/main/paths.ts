import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The station's data folder when no host says otherwise: the same folder Electron uses as
 * userData for the app, so the desktop app, the web host and the CLI share one database.
 */
export function defaultDataDir(productName: string, env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (env.PACKING_STATION_DATA_DIR) return env.PACKING_STATION_DATA_DIR;
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), productName);
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', productName);
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), productName);
}
