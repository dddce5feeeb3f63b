/**
 * Webhook intake through the store engine, the same tests on both engines (SQLite, and a fresh
 * database of the run's private PostgreSQL server): exactly-once intake by the event's key, the
 * status timeline, conflicts settled by a lead, and pull notices heard by another bench.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventName, EventPayload } from '../../../src/shared/contract';
import { createEventBus } from '../../../src/main/contract/event-bus';
import { createLogger } from '../../../src/main/logging/logger';
import { createStatusEventProcessor, type StatusEventProcessor } from '../../../src/main/orders/status-events';
import { createWebhookConflicts, type WebhookConflicts } from '../../../src/main/orders/webhook-conflicts';
import type { StoreEngine } from '../../../src/main/store/engine/store-engine';
import { createPullNotices, type PullNotices } from '../../../src/main/supervision/pull-notices';
import { createStatusTimeline, type StatusTimeline } from '../../../src/main/supervision/status-timeline';
import { engineFactories, type EngineUnderTest } from '../store-engine/engines';
import { statusEvent } from './payloads';

const logger = createLogger(() => undefined, { level: 'error' });
const at = (time: string) => `2026-03-01T${time}:00.000Z`;
const now = new Date('2026-03-01T12:00:00.000Z');

/** The webhook modules of one process (a receiver, or a bench) on an engine, as the composition root wires them. */
function intake(engine: StoreEngine, bench: string) {
  const events = createEventBus(logger);
  const heard: { name: EventName; payload: unknown }[] = [];
  events.subscribe((name, payload) => heard.push({ name, payload }));
  const conflicts: WebhookConflicts = createWebhookConflicts({ engine, events, logger, clock: () => now });
  const timeline: StatusTimeline = createStatusTimeline(engine);
  const notices: PullNotices = createPullNotices({ engine, events, logger, benchName: () => bench, clock: () => now });
  const processor: StatusEventProcessor = createStatusEventProcessor({
    engine,
    logger,
    conflicts,
    clock: () => now,
    onEvent: async (tx, event, afterCommit) => {
      await timeline.record(tx, event);
      const raised = await notices.consider(tx, event);
      if (raised !== null) afterCommit(() => notices.announce(event.environment, raised));
    },
  });
  const next = <E extends EventName>(name: E): Promise<EventPayload<E>> =>
    new Promise((resolve) => {
      const stop = events.subscribe((heardName, payload) => {
        if (heardName !== name) return;
        stop();
        resolve(payload as EventPayload<E>);
      });
    });
  return { conflicts, timeline, notices, processor, heard, next };
}

/** A label printed for the order (what makes a cancellation a reason to pull the parcel). */
async function printedLabel(engine: StoreEngine, orderId: string): Promise<void> {
  await engine.execute(
    `INSERT INTO print_journal (environment, printer_id, operator, order_id, format, state, queued_at, sent_at, printed_at, updated_at)
     VALUES ('test', 'zebra-1', 'Packer Pia', $1, 'zpl', 'printed', $2, $2, $2, $2)`,
    [orderId, at('08:00')],
  );
}

for (const factory of engineFactories) {
  describe(`webhook intake on ${factory.name}`, () => {
    let store: EngineUnderTest;
    beforeEach(async () => {
      store = await factory.open();
    });
    afterEach(async () => {
      await store.dispose();
    });

    it('writes an event once: a re-delivery changes nothing and is counted as a duplicate', async () => {
      const receiver = intake(store.engine, 'Receiver');
      const first = receiver.processor.enqueue('test', statusEvent('ORD-1', 'expected', 'draft', { updatedAt: at('09:00') }));
      await first.written;
      const again = receiver.processor.enqueue('test', statusEvent('ORD-1', 'expected', 'draft', { updatedAt: at('09:00') }));
      await again.written;
      expect(receiver.processor.counters()).toMatchObject({ applied: 1, duplicates: 1 });
      expect(await store.engine.query('SELECT order_id, status, barcode, source FROM orders')).toEqual([{ order_id: 'ORD-1', status: 'expected', barcode: 'BC-ORD-1', source: 'webhook' }]);
      expect(await store.engine.query('SELECT outcome FROM webhook_events')).toEqual([{ outcome: 'applied' }]);
      expect((await receiver.timeline.of('test', 'ORD-1')).map((row) => [row.status, row.outcome])).toEqual([['expected', 'applied']]);
    });

    it('two receivers given the same events at the same moment write each exactly once', async () => {
      const one = intake(store.engine, 'Receiver 1');
      const two = intake(await store.another(), 'Receiver 2');
      const events = Array.from({ length: 40 }, (_, n) => statusEvent(`ORD-${n}`, 'in_transit', 'expected', { updatedAt: at('10:00') }));
      const writes = events.flatMap((event) => [one.processor.enqueue('test', event).written, two.processor.enqueue('test', event).written]);
      await Promise.all(writes);
      const applied = one.processor.counters().applied + two.processor.counters().applied;
      const duplicates = one.processor.counters().duplicates + two.processor.counters().duplicates;
      expect([applied, duplicates]).toEqual([40, 40]);
      expect(await store.engine.query<{ n: number }>('SELECT count(*) AS n FROM webhook_events')).toEqual([{ n: 40 }]);
      expect(await store.engine.query<{ n: number }>("SELECT count(*) AS n FROM order_status_timeline WHERE status = 'in_transit'")).toEqual([{ n: 40 }]);
    });

    it('keeps the status forward-only and the timeline in the order things happened, with the latest parcel facts', async () => {
      const receiver = intake(store.engine, 'Receiver');
      await receiver.processor.enqueue('test', statusEvent('ORD-7', 'out_for_delivery', 'in_transit', { updatedAt: at('11:00'), trackingUrl: 'https://track.example/7', weight: 2.4, locationId: null })).written;
      await receiver.processor.enqueue('test', statusEvent('ORD-7', 'in_transit', 'expected', { updatedAt: at('10:00'), locationId: 205 })).written;
      expect(await store.engine.query('SELECT status, status_updated_at FROM orders')).toEqual([{ status: 'out_for_delivery', status_updated_at: at('11:00') }]);
      expect((await receiver.timeline.of('test', 'ORD-7')).map((row) => [row.status, row.outcome])).toEqual([
        ['in_transit', 'ignored-backward'],
        ['out_for_delivery', 'applied'],
      ]);
      expect(await receiver.timeline.facts('test', 'ORD-7')).toEqual({ trackingUrl: 'https://track.example/7', weightGrams: 2, locationId: 205 });
    });

    it('records a forged identifier change as a conflict once, and a lead reversing a webhook cancellation puts the order back', async () => {
      const receiver = intake(store.engine, 'Receiver');
      await receiver.processor.enqueue('test', statusEvent('ORD-1', 'expected', 'draft', { updatedAt: at('09:00') })).written;
      const forged = statusEvent('ORD-2', 'expected', 'draft', { updatedAt: at('09:30'), barcode: 'BC-ORD-1' });
      await receiver.processor.enqueue('test', forged).written;
      await receiver.processor.enqueue('test', forged).written;
      const [clash] = await receiver.conflicts.list('test', { limit: 10, includeSettled: false });
      expect(clash).toMatchObject({ orderId: 'ORD-2', kind: 'identifier', applied: false, message: expect.stringContaining('its barcode BC-ORD-1 already belongs to order ORD-1') });
      expect(receiver.heard.filter((event) => event.name === 'webhooks.conflict')).toEqual([{ name: 'webhooks.conflict', payload: clash }]);

      await receiver.processor.enqueue('test', statusEvent('ORD-1', 'cancelled', 'expected', { updatedAt: at('09:45') })).written;
      const [cancelled] = await receiver.conflicts.list('test', { limit: 1, includeSettled: false });
      expect(cancelled).toMatchObject({ orderId: 'ORD-1', kind: 'terminal', applied: true });
      const settled = await receiver.conflicts.settle('test', cancelled!.id, 'reverse', 'Lead Lisa');
      expect(settled.settled).toEqual({ decision: 'reverse', by: 'Lead Lisa', at: now.toISOString() });
      expect(await store.engine.query("SELECT status FROM orders WHERE order_id = 'ORD-1'")).toEqual([{ status: 'expected' }]);
      await expect(receiver.conflicts.settle('test', cancelled!.id, 'confirm', 'Lead Lisa')).rejects.toMatchObject({ code: 'CONFLICT' });
    });

    it('raises one pull notice for a printed parcel cancelled by the service, heard by another bench that follows', async () => {
      const receiver = intake(store.engine, 'Receiver');
      const bench = intake(await store.another(), 'Bench 3');
      const following = await bench.notices.follow();
      try {
        await printedLabel(store.engine, 'ORD-9');
        const heard = bench.next('supervision.notice');
        await receiver.processor.enqueue('test', statusEvent('ORD-9', 'cancelled', 'expected', { updatedAt: at('10:00') })).written;
        const notice = await heard;
        expect(notice).toMatchObject({ orderId: 'ORD-9', orderRef: 'REF-ORD-9', status: 'cancelled', bench: 'Receiver', printedAt: at('08:00'), acknowledged: null });
        // The same news again raises nothing new.
        await receiver.processor.enqueue('test', statusEvent('ORD-9', 'cancelled', 'expected', { updatedAt: at('10:05') })).written;
        expect(await bench.notices.list('test', { includeAcknowledged: true, limit: 10 })).toHaveLength(1);
        const acknowledged = await bench.notices.acknowledge('test', notice.id, 'Lead Lisa');
        expect(acknowledged.acknowledged).toEqual({ by: 'Lead Lisa', at: now.toISOString() });
        expect(await receiver.notices.list('test', { includeAcknowledged: false, limit: 10 })).toEqual([]);
      } finally {
        await following.close();
      }
    });
  });
}
