import type { Handlers } from '../contract/dispatcher';
import type { SandboxWebhookLink } from '../orders/sandbox-webhooks';
import type { WebhookReceiver } from '../orders/webhook-receiver';

export interface WebhooksHandlerDeps {
  receiver: WebhookReceiver;
  /** Keeps the embedded sandbox's registration in step with the receiver. */
  sandboxLink: SandboxWebhookLink;
}

export function webhooksHandlers({ receiver, sandboxLink }: WebhooksHandlerDeps): Pick<Handlers, 'webhooks.status' | 'webhooks.start' | 'webhooks.stop'> {
  return {
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
