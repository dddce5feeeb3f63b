import type { Handlers } from '../contract/dispatcher';
import type { SandboxWebhookLink } from '../orders/sandbox-webhooks';
import type { WebhookReceiver } from '../orders/webhook-receiver';
import type { StationSettings } from '../settings/station-settings';

export interface SettingsHandlerDeps {
  settings: StationSettings;
  webhooks: WebhookReceiver;
  /** Keeps the embedded sandbox's webhook registration in step with the environment and the receiver's address. */
  sandboxLink?: SandboxWebhookLink;
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
      if (change.webhooks || change.environment !== undefined) await deps.sandboxLink?.sync();
      return updated;
    },
  };
}
