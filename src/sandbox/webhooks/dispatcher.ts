/**
 * Delivers status-change webhooks: POST with the fixed JSON payload, retried on non-2xx answers,
 * timeouts and network errors after the configured waits. Duplicates and out-of-order delivery
 * can be switched on so receivers can be tested against both.
 */
// The agent and its request() alone: undici's package entry also loads its mock agents, caches,
// fetch, WebSocket and HTTP/2 client, about 0.1 s of CPU at every start of a sandbox.
import Agent from 'undici/lib/dispatcher/agent.js';
import request from 'undici/lib/api/api-request.js';
import type { WebhookPayload } from '../../shared/api/schemas';
import type { Random } from '../random';
import type { WebhookSettings } from '../settings';
import type { EnvironmentName } from '../world/types';
import { errorText } from '../../shared/error-text';

export const webhookContentType = 'application/json; charset=UTF-8';

export interface WebhookDelivery {
  id: number;
  environment: EnvironmentName;
  registrationId: string;
  url: string;
  orderId: string;
  status: string;
  previousStatus: string | null;
  /** True for the extra copy sent when duplicates are switched on. */
  duplicate: boolean;
  state: 'pending' | 'delivered' | 'failed';
  attempts: number;
  lastStatusCode: number | undefined;
  lastError: string | undefined;
  createdAt: string;
  finishedAt: string | undefined;
}

export interface WebhookTarget {
  registrationId: string;
  url: string;
}

export interface WebhookDispatcher {
  emit(environment: EnvironmentName, targets: readonly WebhookTarget[], payload: WebhookPayload): void;
  deliveries(): readonly WebhookDelivery[];
  /** Resolves once no delivery is queued, held, in flight or waiting for a retry. */
  idle(): Promise<void>;
  clearLog(): void;
  close(): Promise<void>;
}

interface Job {
  delivery: WebhookDelivery;
  body: string;
}

const logLimit = 20_000;

export function createWebhookDispatcher(options: { settings: () => WebhookSettings; random: Random; now?: () => number }): WebhookDispatcher {
  const now = options.now ?? Date.now;
  const agent = new Agent({ keepAliveTimeout: 4_000, connections: 64 });
  const log: WebhookDelivery[] = [];
  const queues = new Map<string, { jobs: Job[]; active: number }>();
  const held = new Map<string, { jobs: Job[]; timer: NodeJS.Timeout }>();
  const retryTimers = new Set<NodeJS.Timeout>();
  let outstanding = 0;
  let nextId = 1;
  let closed = false;
  let idleWaiters: (() => void)[] = [];

  const settle = () => {
    if (outstanding > 0) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  };

  const finish = (job: Job, state: 'delivered' | 'failed') => {
    job.delivery.state = state;
    job.delivery.finishedAt = new Date(now()).toISOString();
    outstanding -= 1;
    settle();
  };

  const pump = (url: string) => {
    const queue = queues.get(url);
    if (!queue || closed) return;
    const limit = options.settings().concurrency;
    while (queue.active < limit && queue.jobs.length > 0) {
      const job = queue.jobs.shift()!;
      queue.active += 1;
      void attempt(job).finally(() => {
        queue.active -= 1;
        if (queue.active === 0 && queue.jobs.length === 0) queues.delete(url);
        pump(url);
      });
    }
  };

  const enqueue = (job: Job) => {
    if (closed) return;
    const url = job.delivery.url;
    const queue = queues.get(url) ?? { jobs: [], active: 0 };
    queues.set(url, queue);
    queue.jobs.push(job);
    pump(url);
  };

  const attempt = async (job: Job): Promise<void> => {
    const settings = options.settings();
    const delivery = job.delivery;
    delivery.attempts += 1;
    try {
      const target = new URL(delivery.url);
      const answer = await request.call(agent, {
        origin: target.origin,
        path: `${target.pathname}${target.search}`,
        method: 'POST',
        headers: { 'content-type': webhookContentType, 'user-agent': 'delivery-api-sandbox-webhooks/1.0' },
        body: job.body,
        headersTimeout: settings.timeoutMs,
        bodyTimeout: settings.timeoutMs,
        signal: AbortSignal.timeout(settings.timeoutMs),
      });
      await answer.body.dump();
      delivery.lastStatusCode = answer.statusCode;
      delivery.lastError = undefined;
      if (answer.statusCode >= 200 && answer.statusCode < 300) return finish(job, 'delivered');
      delivery.lastError = `HTTP ${answer.statusCode}`;
    } catch (error) {
      delivery.lastStatusCode = undefined;
      delivery.lastError = errorText(error);
    }
    const wait = settings.retryDelaysMs[delivery.attempts - 1];
    if (wait === undefined || closed) return finish(job, 'failed');
    const timer = setTimeout(() => {
      retryTimers.delete(timer);
      enqueue(job);
    }, wait);
    timer.unref();
    retryTimers.add(timer);
  };

  const hold = (job: Job) => {
    const url = job.delivery.url;
    const existing = held.get(url);
    if (existing) {
      existing.jobs.push(job);
      return;
    }
    const timer = setTimeout(() => {
      const batch = held.get(url);
      held.delete(url);
      // Newest first: receivers see the later status before the earlier one.
      for (const item of (batch?.jobs ?? []).reverse()) enqueue(item);
    }, options.settings().outOfOrderWindowMs);
    timer.unref();
    held.set(url, { jobs: [job], timer });
  };

  const record = (environment: EnvironmentName, target: WebhookTarget, payload: WebhookPayload, duplicate: boolean): Job => {
    const delivery: WebhookDelivery = {
      id: nextId++,
      environment,
      registrationId: target.registrationId,
      url: target.url,
      orderId: payload.orderId,
      status: payload.status,
      previousStatus: payload.previousStatus,
      duplicate,
      state: 'pending',
      attempts: 0,
      lastStatusCode: undefined,
      lastError: undefined,
      createdAt: new Date(now()).toISOString(),
      finishedAt: undefined,
    };
    log.push(delivery);
    if (log.length > logLimit) log.splice(0, log.length - logLimit);
    outstanding += 1;
    return { delivery, body: JSON.stringify(payload) };
  };

  return {
    emit(environment, targets, payload) {
      if (closed) return;
      const settings = options.settings();
      for (const target of targets) {
        const copies = [record(environment, target, payload, false)];
        if (settings.duplicateRate > 0 && options.random.chance(settings.duplicateRate)) copies.push(record(environment, target, payload, true));
        for (const job of copies) {
          if (settings.outOfOrder) hold(job);
          else enqueue(job);
        }
      }
    },
    deliveries: () => log,
    idle: () => (outstanding === 0 ? Promise.resolve() : new Promise((resolve) => idleWaiters.push(resolve))),
    clearLog: () => {
      log.length = 0;
    },
    async close() {
      closed = true;
      for (const timer of retryTimers) clearTimeout(timer);
      retryTimers.clear();
      for (const { timer } of held.values()) clearTimeout(timer);
      held.clear();
      queues.clear();
      outstanding = 0;
      settle();
      await agent.destroy();
    },
  };
}
