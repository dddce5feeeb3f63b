import type { HandlersOf } from '../contract/dispatcher';
import type { StationSettings } from '../settings/station-settings';
import type { KeyService } from '../keys/key-service';
import type { appCalls } from '../../shared/contract/app';

export interface AppHandlerDeps {
  name: string;
  version: string;
  host: 'electron' | 'web';
  /** The data folder: said on screen so IT knows where the database and handover lists are. */
  dataDir?: string;
  settings: StationSettings;
  /** Whether a key usable at the environment's current address is stored. */
  keys: Pick<KeyService, 'hasUsableKey'>;
}

export function appHandlers(deps: AppHandlerDeps): HandlersOf<typeof appCalls> {
  return {
    'app.info': async () => {
      const environment = deps.settings.environment();
      const keySet = environment === 'sandbox' ? true : await deps.keys.hasUsableKey(environment).catch(() => false);
      return {
        name: deps.name,
        version: deps.version,
        environment,
        keySet,
        host: deps.host,
        stationName: deps.settings.stationName(),
        ...(deps.dataDir !== undefined ? { dataDir: deps.dataDir } : {}),
      };
    },
  };
}
