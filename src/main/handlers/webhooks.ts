import type { HandlersOf } from '../contract/dispatcher';
import type { WebhookConflicts } from '../orders/webhook-conflicts';
import type { StationSettings } from '../settings/station-settings';
import type { SandboxWebhookLink } from '../orders/sandbox-webhooks';
import type { WebhookReceiver } from '../orders/webhook-receiver';
import type { webhooksCalls } from '../../shared/contract/webhooks';

export interface WebhooksHandlerDeps {
  receiver: WebhookReceiver;
  /** Keeps the embedded sandbox's registration in step with the receiver. */
  sandboxLink: SandboxWebhookLink;
  conflicts: WebhookConflicts;
  settings: StationSettings;
}

export function webhooksHandlers({ receiver, sandboxLink, conflicts, settings }: WebhooksHandlerDeps): HandlersOf<typeof webhooksCalls> {
  return {
    'webhooks.conflicts': ({ limit, includeSettled }) => conflicts.list(settings.environment(), { limit, includeSettled }),
    'webhooks.settle': ({ id, decision }) => conflicts.settle(settings.environment(), id, decision, settings.operator()),
    'webhooks.status': () => receiver.status(),
    'webhooks.start': async () => {
      await receiver.start();
      await sandboxLink.sync();
      return receiver.status();
    },
    'webhooks.stop': async () => {
      await receiver.stop();
      await sandboxLink.sync();
      return receiver.status();
    },
  };
}
