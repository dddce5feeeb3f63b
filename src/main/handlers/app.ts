import type { Handlers } from '../contract/dispatcher';
import type { StationSettings } from '../settings/station-settings';
import type { KeyStore } from '../keys/key-store';

export interface AppHandlerDeps {
  name: string;
  version: string;
  host: 'electron' | 'web';
  settings: StationSettings;
  keys: KeyStore;
}

export function appHandlers(deps: AppHandlerDeps): Pick<Handlers, 'app.info'> {
  return {
    'app.info': async () => {
      const environment = deps.settings.environment();
      const keySet = environment === 'sandbox' ? true : await deps.keys.has(environment).catch(() => false);
      return {
        name: deps.name,
        version: deps.version,
        environment,
        keySet,
        host: deps.host,
        stationName: deps.settings.stationName(),
      };
    },
  };
}
