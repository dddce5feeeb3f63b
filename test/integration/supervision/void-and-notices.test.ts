import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderStatus, WebhookPayload } from '../../../src/shared/api/schemas';
import type { CallOutput } from '../../../src/shared/contract';
import type { PrintOutcomeData } from '../../../src/shared/contract/printing';
import type { RunningSandbox } from '../../../src/sandbox';
import type { VirtualZebra } from '../../../src/sandbox/printer';
import { controlCall, createPrintingStation, startTestSandbox, startZebra, stationOrders, type PrintingStation, type TodaysOrder } from '../printing-queue/support';
import { statusEvent } from '../webhooks/payloads';

let sandbox: RunningSandbox;
let zebra: VirtualZebra;
let station: PrintingStation;
let printable: TodaysOrder[];
let webhookUrl = '';
let next = 0;

/** A draft (a scan prints it at once) no other test of this file has used. */
const freshOrder = (): TodaysOrder => {
  const order = printable[next++];
  if (!order) throw new Error('ran out of printable orders');
  return order;
};

const failure = async (name: string, input: unknown) => {
  const result = await station.station.dispatcher.dispatch(name, input, { host: 'web' });
  if (result.ok) throw new Error(`${name} succeeded, a refusal was expected`);
  return result.error;
};

const printOf = async (order: TodaysOrder) => {
  const outcome = await station.call<PrintOutcomeData>('printing.print', { scan: order.orderRef });
  if (outcome.outcome !== 'printed') throw new Error(`expected a print, got ${outcome.outcome}`);
  await station.waitForEvent('printing.label', (entry) => entry.id === outcome.entry.id && entry.state === 'printed', 10_000);
  return outcome.entry;
};

/** A time just after now (within the receiver's clock skew): after anything the sandbox itself reported. */
const secondsFromNow = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();
/** Every webhook the sandbox sent so far (the station is registered with it) is in the order index. */
const sandboxWebhooksIn = async () => {
  await controlCall(sandbox, '/webhooks/wait-idle', { method: 'POST', body: { timeoutMs: 10_000 } });
  await station.station.services.webhooks.drained();
};
const eventFor = (order: TodaysOrder, status: OrderStatus, previous: OrderStatus | null, at: string, extra: Partial<WebhookPayload> = {}) =>
  statusEvent(order.orderId, status, previous, { orderRef: order.orderRef, barcode: order.barcode, orderBundle: { id: 1, bundleId: order.bundleId }, updatedAt: at, ...extra });
const deliver = async (payload: WebhookPayload) => {
  const response = await fetch(webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json; charset=UTF-8' }, body: JSON.stringify(payload) });
  expect(response.status).toBe(200);
};

beforeAll(async () => {
  sandbox = await startTestSandbox({ orders: 300 });
  const started = await startZebra();
  zebra = started.zebra;
  station = await createPrintingStation(sandbox, started.port);
  await station.call('settings.set', { stationName: 'Bench 3', webhooks: { host: '127.0.0.1', port: 0 } });
  const status = await station.call<CallOutput<'webhooks.start'>>('webhooks.start', {});
  webhookUrl = `http://127.0.0.1:${status.port}${status.paths.find((entry) => entry.environment === 'sandbox')?.path}`;
  printable = (await stationOrders(sandbox)).filter((order) => order.zplAvailable && order.status === 'draft');
}, 60_000);

afterAll(async () => {
  await station?.dispose();
  await zebra?.stop();
  await sandbox?.close();
});

describe('voiding an order through the service', () => {
  it('cancels at the service, voids the printed label, marks the order cancelled and refuses the next scan with who and when', async () => {
    const order = freshOrder();
    const entry = await printOf(order);
    const outcome = await station.call<CallOutput<'supervision.cancel'>>('supervision.cancel', { scan: order.barcode, reason: 'customer called', operator: 'Anna' });
    expect(outcome).toMatchObject({ orderId: order.orderId, outcome: 'cancelled', status: 'cancelled', labelsVoided: 1 });

    const atService = (await controlCall(sandbox, `/environments/test/orders/${order.orderId}`)) as { status: string };
    expect(atService.status).toBe('cancelled');
    const { labels } = await station.call<CallOutput<'supervision.whereabouts'>>('supervision.whereabouts', { scan: order.orderRef });
    const label = labels.find((row) => row.id === entry.id);
    expect(label).toMatchObject({ state: 'voided', voidedBy: 'Anna', voidReason: 'customer called' });
    expect(label?.voidedAt).toEqual(expect.any(String));
    // History reads the journal: the void mark is there for any screen opened later, not only this one.
    const history = await station.call<CallOutput<'printing.journal'>>('printing.journal', { orderId: order.orderId });
    expect(history.entries.find((row) => row.id === entry.id)).toMatchObject({ voidedBy: 'Anna', voidReason: 'customer called', voidedAt: label?.voidedAt });

    const lookup = await station.call<CallOutput<'orders.lookup'>>('orders.lookup', { scan: order.orderRef });
    expect(lookup.order).toMatchObject({ status: 'cancelled', voided: { by: 'Anna', reason: 'customer called' } });
    expect(lookup.printable.allowed).toBe(false);

    const refused = await failure('printing.print', { scan: order.orderRef, reprint: { reason: 'try again', operator: 'Lead' } });
    expect(refused.code).toBe('ORDER_VOIDED');
    expect(refused.details).toEqual(expect.arrayContaining(['voided_by: Anna', 'reason: customer called', `voided_at: ${label?.voidedAt}`]));
    // The refused scan is in the station's log with its outcome.
    const logged = station.logLines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.message === 'scan not printed');
    expect(logged).toContainEqual(expect.objectContaining({ scan: order.orderRef, outcome: 'ORDER_VOIDED' }));
  });

  it('voids the labels when cancelled again after a stop came between marking the order and voiding its labels', async () => {
    const order = freshOrder();
    const entry = await printOf(order);
    // What such a stop leaves: the order marked in the store engine, its label in the journal untouched.
    await station.station.services.store.execute(
      `UPDATE orders SET status = 'cancelled', voided_at = $1, voided_by = 'Anna', void_reason = 'customer called' WHERE environment = $2 AND order_id = $3`,
      ['2026-11-24T06:28:00.000Z', station.station.settings.environment(), order.orderId],
    );
    expect((await station.station.services.orders.get(station.station.settings.environment(), order.orderId))?.voided).toMatchObject({ by: 'Anna' });
    const outcome = await station.call<CallOutput<'supervision.cancel'>>('supervision.cancel', { scan: order.barcode, reason: 'again', operator: 'Lead' });
    expect(outcome).toMatchObject({ orderId: order.orderId, outcome: 'already', labelsVoided: 1 });
    const { labels } = await station.call<CallOutput<'supervision.whereabouts'>>('supervision.whereabouts', { scan: order.orderRef });
    expect(labels.find((row) => row.id === entry.id)).toMatchObject({ state: 'voided', voidedBy: 'Anna', voidReason: 'customer called', voidedAt: '2026-11-24T06:28:00.000Z' });
  });

  it('shows the service’s refusal and the last known status for an order beyond in_transit, and marks nothing', async () => {
    const order = freshOrder();
    const entry = await printOf(order);
    await controlCall(sandbox, `/environments/test/orders/${order.orderId}/status`, { method: 'POST', body: { status: 'in_transit' } });
    await controlCall(sandbox, `/environments/test/orders/${order.orderId}/status`, { method: 'POST', body: { status: 'out_for_delivery' } });
    await sandboxWebhooksIn();

    const refused = await failure('supervision.cancel', { scan: order.orderRef, reason: 'too late', operator: 'Anna' });
    expect(refused.code).toBe('CANCEL_REFUSED');
    expect(refused.message).toContain('out_for_delivery');
    expect(refused.details).toContain('status: out_for_delivery');

    const lookup = await station.call<CallOutput<'orders.lookup'>>('orders.lookup', { scan: order.orderRef });
    expect(lookup.order.voided ?? null).toBeNull();
    expect(lookup.order.status).not.toBe('cancelled');
    const { labels } = await station.call<CallOutput<'supervision.whereabouts'>>('supervision.whereabouts', { scan: order.orderRef });
    expect(labels.find((row) => row.id === entry.id)).toMatchObject({ state: 'printed', voidedAt: null });
  });

  it('needs a reason and an operator, and the word LIVE in live', async () => {
    const order = freshOrder();
    expect((await failure('supervision.cancel', { scan: order.orderRef, reason: ' ', operator: 'Anna' })).code).toBe('INVALID_INPUT');
    expect((await failure('supervision.cancel', { scan: order.orderRef, reason: 'x', operator: '' })).code).toBe('INVALID_INPUT');
    station.station.settings.setEnvironment('live');
    try {
      expect((await failure('supervision.cancel', { scan: order.orderRef, reason: 'x', operator: 'Anna' })).code).toBe('CONFIRMATION_REQUIRED');
    } finally {
      station.station.settings.setEnvironment('sandbox');
    }
    const atService = (await controlCall(sandbox, `/environments/test/orders/${order.orderId}`)) as { status: string };
    expect(atService.status).not.toBe('cancelled');
  });

  it('cancels a whole bundle in one action and reports each order’s result', async () => {
    const all = await stationOrders(sandbox);
    const used = new Set(printable.slice(0, next).map((order) => order.bundleId));
    const byBundle = new Map<string, TodaysOrder[]>();
    for (const order of all) byBundle.set(order.bundleId, [...(byBundle.get(order.bundleId) ?? []), order]);
    const bundle = [...byBundle].find(
      ([bundleId, members]) => !used.has(bundleId) && members.length >= 3 && members.every((order) => order.status === 'draft' || order.status === 'expected'),
    );
    if (!bundle) throw new Error('no bundle of three or more open orders');
    const [bundleId, members] = bundle;
    const late = members[1] as TodaysOrder;
    await controlCall(sandbox, `/environments/test/orders/${late.orderId}/status`, { method: 'POST', body: { status: 'in_transit' } });
    await controlCall(sandbox, `/environments/test/orders/${late.orderId}/status`, { method: 'POST', body: { status: 'at_pickup_point' } });

    const answer = await station.call<CallOutput<'supervision.cancelBundle'>>('supervision.cancelBundle', { scan: members[0]?.orderRef, reason: 'shop closed', operator: 'Anna' });
    expect(answer.bundleId).toBe(bundleId);
    expect(answer.results.map((result) => result.orderId).sort()).toEqual(members.map((order) => order.orderId).sort());
    for (const result of answer.results) {
      if (result.orderId === late.orderId) expect(result).toMatchObject({ outcome: 'refused', message: expect.stringContaining('at_pickup_point') });
      else expect(result).toMatchObject({ outcome: 'cancelled', status: 'cancelled' });
    }
    const lateLookup = await station.call<CallOutput<'orders.lookup'>>('orders.lookup', { scan: late.orderRef });
    expect(lateLookup.order.voided ?? null).toBeNull();
  });
});

describe('pull this parcel', () => {
  it('raises a notice when a cancellation arrives by webhook after the label was printed here, until a lead acknowledges it', async () => {
    const order = freshOrder();
    await printOf(order);
    await sandboxWebhooksIn();
    const raised = station.waitForEvent('supervision.notice', (notice) => notice.orderId === order.orderId, 10_000);
    const cancelled = eventFor(order, 'cancelled', 'expected', secondsFromNow(5));
    await deliver(cancelled);
    await deliver(cancelled);
    const notice = await raised;
    expect(notice).toMatchObject({ orderRef: order.orderRef, barcode: order.barcode, status: 'cancelled', bench: 'Bench 3', acknowledged: null });
    expect(notice.action).toMatch(/off the pallet/);
    expect(notice.printedAt).toEqual(expect.any(String));

    const open = await station.call<CallOutput<'supervision.notices'>>('supervision.notices', {});
    expect(open.filter((entry) => entry.orderId === order.orderId)).toHaveLength(1);
    const acknowledged = await station.call<CallOutput<'supervision.acknowledge'>>('supervision.acknowledge', { id: notice.id, by: 'Lead Lisa' });
    expect(acknowledged.acknowledged).toMatchObject({ by: 'Lead Lisa' });
    const after = await station.call<CallOutput<'supervision.notices'>>('supervision.notices', {});
    expect(after.some((entry) => entry.id === notice.id)).toBe(false);
  });

  it('raises no notice for an order this station never printed', async () => {
    const order = freshOrder();
    await deliver(eventFor(order, 'rejected', 'draft', secondsFromNow(5)));
    await station.station.services.webhooks.drained();
    const whereabouts = await station.call<CallOutput<'supervision.whereabouts'>>('supervision.whereabouts', { scan: order.orderRef });
    expect(whereabouts.timeline.map((entry) => entry.status)).toEqual(['rejected']);
    expect(whereabouts.notices).toEqual([]);
  });
});

describe('where is this parcel', () => {
  it('reads the timeline in the service’s order whatever order and how often the webhooks came, with the tracking link', async () => {
    const order = freshOrder();
    await printOf(order);
    await sandboxWebhooksIn();
    const track = 'https://track.example.test/p/1';
    const inTransit = eventFor(order, 'in_transit', 'expected', secondsFromNow(10), { attempt: 1, trackingUrl: track });
    const out = eventFor(order, 'out_for_delivery', 'in_transit', secondsFromNow(20), { attempt: 1 });
    const awaiting = eventFor(order, 'awaiting_next_attempt', 'out_for_delivery', secondsFromNow(30), { attempt: 1 });
    const outAgain = eventFor(order, 'out_for_delivery', 'awaiting_next_attempt', secondsFromNow(40), { attempt: 2 });
    // Out of order and with re-deliveries, as the spec warns.
    for (const payload of [out, inTransit, out, outAgain, awaiting, inTransit]) await deliver(payload);
    await station.station.services.webhooks.drained();
    const whereabouts = await station.call<CallOutput<'supervision.whereabouts'>>('supervision.whereabouts', { scan: order.barcode });
    expect(whereabouts.timeline.map((entry) => [entry.status, entry.previousStatus, entry.attempt])).toEqual([
      // The sandbox's own webhook when the label was fetched.
      ['expected', 'draft', expect.any(Number)],
      ['in_transit', 'expected', 1],
      ['out_for_delivery', 'in_transit', 1],
      ['awaiting_next_attempt', 'out_for_delivery', 1],
      ['out_for_delivery', 'awaiting_next_attempt', 2],
    ]);
    expect(whereabouts.trackingUrl).toBe(track);
    expect(whereabouts.printed).toBe('here');
    expect(whereabouts.order.status).toBe('out_for_delivery');
  });

  it('says a label was printed elsewhere when the service has it expected and this station never printed it', async () => {
    const order = freshOrder();
    await deliver(eventFor(order, 'expected', 'draft', secondsFromNow(5)));
    await station.station.services.webhooks.drained();
    const whereabouts = await station.call<CallOutput<'supervision.whereabouts'>>('supervision.whereabouts', { scan: order.orderRef });
    expect(whereabouts.printed).toBe('elsewhere');
    const untouched = freshOrder();
    const nothing = await station.call<CallOutput<'supervision.whereabouts'>>('supervision.whereabouts', { scan: untouched.orderRef });
    expect(nothing.printed).toBe('not-yet');
  });
});
