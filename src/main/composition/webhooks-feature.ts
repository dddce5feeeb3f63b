/**
 * The webhook intake: the receiver the Delivery Service posts status events to, what each event
 * is weighed into (the status timeline, the pull notices, the creation ledger) and the conflicts
 * it raises, and the embedded sandbox's link to the receiver.
 */
import type { EmbeddedSandbox } from '../embedded-sandbox';
import type { EventBus } from '../contract/event-bus';
import { webhooksHandlers } from '../handlers/webhooks';
import type { Logger } from '../logging/logger';
import type { StrayErrors } from '../logging/stray-errors';
import { createSandboxWebhookLink, type SandboxWebhookLink } from '../orders/sandbox-webhooks';
import { createStatusEventProcessor } from '../orders/status-events';
import { createWebhookConflicts, type WebhookConflicts } from '../orders/webhook-conflicts';
import { createWebhookReceiver, type WebhookReceiver } from '../orders/webhook-receiver';
import type { StationSettings } from '../settings/station-settings';
import { ledgerHearsStatusEvents } from '../shipping/ledger-events';
import type { CreationLedger } from '../shipping/creation-ledger';
import type { StoreEngine } from '../store';
import { createPullNotices, type PullNotices } from '../supervision/pull-notices';
import { createStatusTimeline, type StatusTimeline } from '../supervision/status-timeline';

export interface WebhooksFeatureDeps {
  engine: StoreEngine;
  settings: StationSettings;
  /** Settled by a status event of an order whose creation is of unknown outcome. */
  ledger: CreationLedger;
  sandbox: EmbeddedSandbox;
  events: EventBus;
  logger: Logger;
  /** The clock webhook events are dated against; the system clock by default. */
  clock?: () => Date;
  /** The process's stray errors, for the receiver's health check. */
  strayErrors?: StrayErrors;
}

export interface WebhooksFeature {
  readonly receiver: WebhookReceiver;
  readonly conflicts: WebhookConflicts;
  readonly timeline: StatusTimeline;
  readonly notices: PullNotices;
  readonly sandboxLink: SandboxWebhookLink;
  readonly handlers: ReturnType<typeof webhooksHandlers>;
}

export function webhooksFeature(deps: WebhooksFeatureDeps): WebhooksFeature {
  const { engine, settings, sandbox, events, logger, clock } = deps;
  const conflicts = createWebhookConflicts({ engine, events, logger, clock });
  const timeline = createStatusTimeline(engine);
  const notices = createPullNotices({ engine, events, logger, benchName: () => settings.stationName(), clock });
  const settleCreations = ledgerHearsStatusEvents(deps.ledger, logger);
  // Nothing reaches the receiver before a host starts it (`station.start`), after composing.
  const receiver = createWebhookReceiver({
    settings,
    logger,
    clock,
    strayErrors: deps.strayErrors,
    storeReachable: async () => {
      await engine.query('SELECT 1');
      return true;
    },
    processor: createStatusEventProcessor({
      engine,
      logger,
      conflicts,
      clock,
      onEvent: async (tx, event, afterCommit) => {
        await timeline.record(tx, event);
        const raised = await notices.consider(tx, event);
        if (raised !== null) afterCommit(() => notices.announce(event.environment, raised));
        // A status event of an order whose creation is of unknown outcome settles it.
        await settleCreations(tx, event.environment, event.payload);
      },
    }),
  });
  const sandboxLink = createSandboxWebhookLink({
    environment: () => settings.environment(),
    receiver: () => receiver.status(),
    sandboxRunning: () => sandbox.isRunning(),
    register: (url) => sandbox.registerWebhook(url),
    unregister: (id) => sandbox.unregisterWebhook(id),
    logger,
  });
  return {
    receiver,
    conflicts,
    timeline,
    notices,
    sandboxLink,
    handlers: webhooksHandlers({ receiver, sandboxLink, conflicts, settings }),
  };
}
