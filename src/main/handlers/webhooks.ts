import type { Handlers } from '../contract/dispatcher';
import type { WebhookReceiver } from '../orders/webhook-receiver';

export function webhooksHandlers(receiver: WebhookReceiver): Pick<Handlers, 'webhooks.status' | 'webhooks.start' | 'webhooks.stop'> {
  return {
    'webhooks.status': () => receiver.status(),
    'webhooks.start': () => receiver.start(),
    'webhooks.stop': () => receiver.stop(),
  };
}
