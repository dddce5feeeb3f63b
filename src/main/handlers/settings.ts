import type { Handlers } from '../contract/dispatcher';
import type { WebhookReceiver } from '../orders/webhook-receiver';
import type { StationSettings } from '../settings/station-settings';

export interface SettingsHandlerDeps {
  settings: StationSettings;
  webhooks: WebhookReceiver;
}

export function settingsHandlers(deps: SettingsHandlerDeps): Pick<Handlers, 'settings.get' | 'settings.set'> {
  return {
    'settings.get': () => deps.settings.snapshot(),
    'settings.set': async (change) => {
      const updated = deps.settings.apply(change);
      // A running receiver moves to its new address or limit at once rather than at the next restart.
      if (change.webhooks && deps.webhooks.status().running) {
        await deps.webhooks.close();
        await deps.webhooks.resume();
      }
      return updated;
    },
  };
}
