/**
 * On the embedded sandbox there is no service operator to give the webhook address to: while the
 * receiver runs and the station works on the sandbox, the receiver's sandbox address is
 * registered with the sandbox's control API, and removed again when either stops. The sandbox
 * starts empty of registrations each time, so a new start registers again.
 */
import type { Environment } from '../../shared/contract/app';
import type { Logger } from '../logging/logger';
import type { WebhookReceiverStatus } from './webhook-receiver';

export interface SandboxWebhookDeps {
  environment(): Environment;
  receiver(): WebhookReceiverStatus;
  /** Whether the embedded sandbox runs in this process (it is never started for this). */
  sandboxRunning(): boolean;
  register(url: string): Promise<string>;
  unregister(id: string): Promise<void>;
  logger: Logger;
}

export interface SandboxWebhookLink {
  /** Registers or removes the receiver's address so it matches what runs now. Never throws. */
  sync(): Promise<void>;
  /** The sandbox was (re)started: whatever was registered with an earlier one is gone. */
  sandboxStarted(): Promise<void>;
  /** The URL registered now, or null. */
  registered(): string | null;
}

export function createSandboxWebhookLink(deps: SandboxWebhookDeps): SandboxWebhookLink {
  let current: { id: string; url: string } | null = null;
  let chain: Promise<void> = Promise.resolve();

  const wantedUrl = (): string | null => {
    if (deps.environment() !== 'sandbox' || !deps.sandboxRunning()) return null;
    const status = deps.receiver();
    if (!status.running) return null;
    const path = status.paths.find((entry) => entry.environment === 'sandbox')?.path;
    if (!path) return null;
    // The sandbox runs in this process: it reaches a receiver listening on every address through loopback.
    const host = status.host === '0.0.0.0' || status.host === '::' ? '127.0.0.1' : status.host;
    return `http://${host.includes(':') ? `[${host}]` : host}:${status.port}${path}`;
  };

  const apply = async (): Promise<void> => {
    const url = wantedUrl();
    if (current && current.url !== url) {
      const stale = current;
      current = null;
      await deps.unregister(stale.id).catch((error: unknown) => deps.logger.warn('could not remove the webhook address from the embedded sandbox', { error }));
    }
    if (url && !current) {
      try {
        current = { id: await deps.register(url), url };
        deps.logger.info('webhook address registered with the embedded sandbox', { url: url.replace(/\/webhooks\/.*/, '/webhooks/…') });
      } catch (error) {
        deps.logger.warn('could not register the webhook address with the embedded sandbox', { error });
      }
    }
  };

  // One change at a time, so a quick on-off-on never leaves two registrations behind.
  const queue = (work: () => Promise<void>): Promise<void> => (chain = chain.then(work, work));

  return {
    sync: () => queue(apply),
    sandboxStarted: () =>
      queue(async () => {
        current = null;
        await apply();
      }),
    registered: () => current?.url ?? null,
  };
}
