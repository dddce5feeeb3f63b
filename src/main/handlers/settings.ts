import { canonicalApiAddress, sameApiAddress, type KeyedEnvironment } from '../../shared/contract/settings';
import { StationError } from '../../shared/errors';
import type { HandlersOf } from '../contract/dispatcher';
import type { KeyService } from '../keys/key-service';
import type { Logger } from '../logging/logger';
import type { SandboxWebhookLink } from '../orders/sandbox-webhooks';
import type { WebhookReceiver } from '../orders/webhook-receiver';
import type { StationSettings } from '../settings/station-settings';
import type { settingsCalls } from '../../shared/contract/settings';

export interface SettingsHandlerDeps {
  settings: StationSettings;
  webhooks: WebhookReceiver;
  /** Forgets a key whose environment moves to another address. */
  keys: Pick<KeyService, 'forgetUnlessBoundTo'>;
  logger: Logger;
  /** Keeps the embedded sandbox's webhook registration in step with the environment and the receiver's address. */
  sandboxLink?: SandboxWebhookLink;
}

const keyedEnvironments: KeyedEnvironment[] = ['test', 'live'];

export function settingsHandlers(deps: SettingsHandlerDeps): HandlersOf<typeof settingsCalls> {
  /**
   * A key is bound to the address it was entered for, so an environment given a new address loses
   * its key. Were the keychain unreachable now, the key stays bound to the old address and the
   * clients still refuse to send it to the new one.
   */
  const forgetKeysOfMovedEnvironments = async (before: Record<KeyedEnvironment, string | null>, requested: KeyedEnvironment[]) => {
    const forgotten: KeyedEnvironment[] = [];
    for (const environment of requested) {
      const address = deps.settings.apiBaseUrl(environment);
      let removed = false;
      try {
        removed = await deps.keys.forgetUnlessBoundTo(environment, address);
      } catch (error) {
        if (!(error instanceof StationError) || error.code !== 'KEYCHAIN_UNAVAILABLE') throw error;
        deps.logger.warn('API key could not be checked after an address change: the keychain is unavailable; the key stays bound to its old address', { environment });
      }
      if (removed) forgotten.push(environment);
      const previous = before[environment];
      if (!sameApiAddress(previous, address) && (previous !== null || address !== null)) {
        deps.logger.warn('Delivery API address changed', {
          environment,
          from: previous === null ? null : canonicalApiAddress(previous),
          to: address === null ? null : canonicalApiAddress(address),
          keyForgotten: removed,
        });
      }
    }
    return forgotten;
  };

  return {
    'settings.get': () => deps.settings.snapshot(),
    'settings.set': async (change) => {
      const before = { test: deps.settings.apiBaseUrl('test'), live: deps.settings.apiBaseUrl('live') };
      const updated = deps.settings.apply(change);
      const requested = keyedEnvironments.filter((environment) => change.apiBaseUrls?.[environment] !== undefined);
      const forgottenKeys = await forgetKeysOfMovedEnvironments(before, requested);
      // A running receiver moves to its new address or limit at once rather than at the next restart.
      if (change.webhooks && deps.webhooks.status().running) {
        await deps.webhooks.close();
        await deps.webhooks.resume();
      }
      if (change.webhooks || change.environment !== undefined) await deps.sandboxLink?.sync();
      return { ...updated, forgottenKeys };
    },
  };
}
