import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OrderStatus } from '../../../src/shared/api/schemas';
import type { CallOutput } from '../../../src/shared/contract';
import { createTestStation, type TestStation } from '../../support/station';
import { statusEvent } from './payloads';

// Forged events through the real receiver over HTTP. The path secret is the only proof the spec
// offers, so these tests assume an attacker who has it.

let test: TestStation;
let now = new Date('2026-03-01T12:00:00.000Z');
let target = '';
const conflictEvents: unknown[] = [];
const call = (name: string, input: unknown) => test.station.dispatcher.dispatch(name, input, { host: 'web' });

type Conflict = CallOutput<'webhooks.conflicts'>[number];

beforeEach(async () => {
  now = new Date('2026-03-01T12:00:00.000Z');
  conflictEvents.length = 0;
  test = await createTestStation({ webhookClock: () => now });
  await call('settings.set', { environment: 'test', operator: 'Lead Lisa', webhooks: { host: '127.0.0.1', port: 0 } });
  test.station.events.subscribe((name, payload) => {
    if (name === 'webhooks.conflict') conflictEvents.push(payload);
  });
  const started = await call('webhooks.start', {});
  if (!started.ok) throw new Error(started.error.message);
  const status = started.value as CallOutput<'webhooks.status'>;
  target = `http://127.0.0.1:${status.port}${status.paths.find((entry) => entry.environment === 'test')?.path}`;
});
afterEach(async () => {
  await test.dispose();
});

const at = (time: string) => `2026-03-01T${time}:00.000Z`;
const event = (orderId: string, status: OrderStatus, previous: OrderStatus | null, time: string, extra: Parameters<typeof statusEvent>[3] = {}) =>
  statusEvent(orderId, status, previous, { updatedAt: at(time), ...extra });
const post = (body: unknown) => fetch(target, { method: 'POST', headers: { 'content-type': 'application/json; charset=UTF-8' }, body: JSON.stringify(body) });
const lookup = async (scan: string) => {
  await test.station.services.webhooks.drained();
  return call('orders.lookup', { scan, remote: false });
};
const conflicts = async (): Promise<Conflict[]> => {
  await test.station.services.webhooks.drained();
  const result = await call('webhooks.conflicts', {});
  if (!result.ok) throw new Error(result.error.message);
  return result.value as Conflict[];
};

describe('identifiers the station knows never change by webhook', () => {
  it('refuses to move a barcode to another order: the parcel scan still resolves to its own order, and a lead sees the conflict', async () => {
    expect((await post(event('ORD-1', 'expected', 'draft', '09:00', { barcode: 'BC-1', orderRef: 'REF-1' }))).status).toBe(200);
    expect(await lookup('BC-1')).toMatchObject({ ok: true, value: { order: { orderId: 'ORD-1' } } });

    // A forged event for another order claiming ORD-1's parcel barcode.
    expect((await post(event('ORD-666', 'expected', 'draft', '09:30', { barcode: 'BC-1', orderRef: 'REF-666' }))).status).toBe(200);
    expect(await lookup('BC-1')).toMatchObject({ ok: true, value: { order: { orderId: 'ORD-1', orderRef: 'REF-1' }, matchedBy: ['barcode'] } });
    expect(await lookup('ORD-666')).toMatchObject({ ok: false, error: { code: 'ORDER_NOT_FOUND' } });

    // A forged event for ORD-1 itself, giving it another barcode, ref and bundle (and a new status).
    expect((await post(event('ORD-1', 'in_transit', 'expected', '10:00', { barcode: 'BC-EVIL', orderRef: 'REF-EVIL', orderBundle: { id: 9, bundleId: 'BUN-EVIL' } }))).status).toBe(200);
    expect(await lookup('BC-EVIL')).toMatchObject({ ok: false, error: { code: 'ORDER_NOT_FOUND' } });
    expect(await lookup('ORD-1')).toMatchObject({ ok: true, value: { order: { barcode: 'BC-1', orderRef: 'REF-1', bundleId: 'BUN-7', status: 'expected' } } });

    const listed = await conflicts();
    expect(listed).toEqual([
      expect.objectContaining({
        orderId: 'ORD-1',
        kind: 'identifier',
        applied: false,
        known: expect.objectContaining({ barcode: 'BC-1', orderRef: 'REF-1' }),
        claimed: expect.objectContaining({ barcode: 'BC-EVIL', status: 'in_transit' }),
        message: expect.stringMatching(/order ref would change from REF-1 to REF-EVIL.*barcode would change from BC-1 to BC-EVIL.*bundle would change from BUN-7 to BUN-EVIL/),
        settled: null,
      }),
      expect.objectContaining({ orderId: 'ORD-666', kind: 'identifier', known: null, message: expect.stringContaining('its barcode BC-1 already belongs to order ORD-1') }),
    ]);
    expect(conflictEvents).toHaveLength(2);
    // A re-delivery of the same forged event is one piece of evidence, not two.
    expect((await post(event('ORD-666', 'expected', 'draft', '09:30', { barcode: 'BC-1', orderRef: 'REF-666' }))).status).toBe(200);
    expect(await conflicts()).toHaveLength(2);
  });

  it('lets a webhook fill in an identifier the station did not know yet', async () => {
    const manifest = 'orderId,orderRef\nORD-5,REF-5\n';
    await call('imports.manifest', { source: { kind: 'content', fileName: 'm.csv', base64: Buffer.from(manifest).toString('base64') } });
    expect((await post(event('ORD-5', 'expected', 'draft', '09:00', { orderRef: 'REF-5', barcode: 'BC-5' }))).status).toBe(200);
    expect(await lookup('BC-5')).toMatchObject({ ok: true, value: { order: { orderId: 'ORD-5', status: 'expected' } } });
    expect(await conflicts()).toEqual([]);
  });
});

describe('identifiers that look alike to a scan', () => {
  it('flags a new order whose ref is another order\'s barcode: the barcode scan stays unambiguous', async () => {
    expect((await post(event('ORD-1', 'expected', 'draft', '09:00', { barcode: 'BC-1', orderRef: 'REF-1' }))).status).toBe(200);
    expect((await post(event('ORD-2', 'expected', 'draft', '09:10', { barcode: 'BC-2', orderRef: 'BC-1' }))).status).toBe(200);
    // Before: SCAN_AMBIGUOUS, the barcode matched ORD-1's barcode and ORD-2's ref.
    expect(await lookup('BC-1')).toMatchObject({ ok: true, value: { order: { orderId: 'ORD-1' }, matchedBy: ['barcode'] } });
    expect(await lookup('BC-2')).toMatchObject({ ok: false, error: { code: 'ORDER_NOT_FOUND' } });
    expect(await conflicts()).toEqual([
      expect.objectContaining({ orderId: 'ORD-2', kind: 'identifier', applied: false, message: expect.stringContaining('its order ref BC-1 looks like the barcode of order ORD-1 to a scan') }),
    ]);
  });

  it('flags a new order whose ref is another order\'s ref in other case: a Caps-Lock scan still finds the real one', async () => {
    expect((await post(event('ORD-1', 'expected', 'draft', '09:00', { barcode: 'BC-1', orderRef: 'NW-104354-4' }))).status).toBe(200);
    expect((await post(event('ORD-9', 'expected', 'draft', '09:10', { barcode: 'BC-9', orderRef: 'nw-104354-4' }))).status).toBe(200);
    // Before: the forged lower-case ref matched the Caps-Lock scan exactly and won it.
    expect(await lookup('nw-104354-4')).toMatchObject({ ok: true, value: { order: { orderId: 'ORD-1' } } });
    expect(await conflicts()).toEqual([
      expect.objectContaining({ orderId: 'ORD-9', kind: 'identifier', message: expect.stringContaining('its order ref nw-104354-4 looks like the order ref of order ORD-1 to a scan') }),
    ]);
  });

  it('flags a ref with a zero-width space or a word joiner instead of storing a ref no scan can send', async () => {
    expect((await post(event('ORD-3', 'expected', 'draft', '09:00', { barcode: 'BC-3', orderRef: 'REF-\u200B3' }))).status).toBe(200);
    expect((await post(event('ORD-4', 'expected', 'draft', '09:00', { barcode: 'BC-\u20604', orderRef: 'REF-4' }))).status).toBe(200);
    const listed = await conflicts();
    expect(listed.map((conflict) => [conflict.orderId, conflict.kind])).toEqual(expect.arrayContaining([['ORD-3', 'identifier'], ['ORD-4', 'identifier']]));
    expect(listed.find((conflict) => conflict.orderId === 'ORD-3')?.message).toContain('invisible character (U+200B)');
    expect(listed.find((conflict) => conflict.orderId === 'ORD-4')?.message).toContain('invisible character (U+2060)');
  });
});

describe('event times', () => {
  it('refuses an event dated beyond five minutes ahead of the station clock (422), so a forged future status cannot hide a real cancellation', async () => {
    expect((await post(event('ORD-2', 'expected', 'draft', '09:00'))).status).toBe(200);
    // Within the skew: accepted.
    expect((await post(event('ORD-2', 'in_transit', 'expected', '12:04'))).status).toBe(200);
    expect(await lookup('ORD-2')).toMatchObject({ ok: true, value: { order: { status: 'in_transit' } } });
    // A day ahead: refused, and would otherwise have out-dated every real event of the day.
    const forged = await post(statusEvent('ORD-2', 'out_for_delivery', 'in_transit', { updatedAt: '2026-03-02T12:00:00.000Z' }));
    expect(forged.status).toBe(422);
    expect(await forged.json()).toMatchObject({ message: expect.stringContaining('future') });
    expect(await lookup('ORD-2')).toMatchObject({ ok: true, value: { order: { status: 'in_transit' } } });

    now = new Date('2026-03-01T12:30:00.000Z');
    expect((await post(event('ORD-2', 'cancelled', 'in_transit', '12:30'))).status).toBe(200);
    expect(await lookup('ORD-2')).toMatchObject({ ok: true, value: { order: { status: 'cancelled' }, printable: { allowed: false } } });
    expect(await conflicts()).toEqual([expect.objectContaining({ orderId: 'ORD-2', kind: 'future', applied: false, claimed: expect.objectContaining({ status: 'out_for_delivery', updatedAt: '2026-03-02T12:00:00.000Z' }) })]);
    const status = await call('webhooks.status', {});
    expect(status).toMatchObject({ ok: true, value: { events: { future: 1 } } });
  });
});

describe('statuses that contradict what the station knows', () => {
  it('keeps a first scan after a cancellation as evidence for a lead instead of ignoring it silently; an old event arriving late stays quiet', async () => {
    const manifest = 'orderId,orderRef,status\nORD-3,REF-3,expected\n';
    await call('imports.manifest', { source: { kind: 'content', fileName: 'm.csv', base64: Buffer.from(manifest).toString('base64') } });
    expect((await post(event('ORD-3', 'cancelled', 'expected', '10:00', { orderRef: 'REF-3' }))).status).toBe(200);
    // Late delivery of an event from before the cancellation: ordinary, not a contradiction.
    expect((await post(event('ORD-3', 'expected', 'draft', '08:00', { orderRef: 'REF-3' }))).status).toBe(200);
    // A first carrier scan after the cancellation: the two cannot both be true.
    expect((await post(event('ORD-3', 'in_transit', 'expected', '11:00', { orderRef: 'REF-3' }))).status).toBe(200);
    expect(await lookup('ORD-3')).toMatchObject({ ok: true, value: { order: { status: 'cancelled' } } });

    const listed = await conflicts();
    // The cancellation itself is listed too: it closed an order that had not left the station.
    expect(listed.map((conflict) => [conflict.kind, conflict.claimed.status, conflict.applied])).toEqual([
      ['status', 'in_transit', false],
      ['terminal', 'cancelled', true],
    ]);
    expect(listed[0]).toMatchObject({ known: { status: 'cancelled', statusUpdatedAt: at('10:00') }, message: expect.stringContaining('never changes, yet this event says in_transit') });
  });

  it('never lets a forged cancellation block an order unseen: a lead sees it and can put the order back', async () => {
    const manifest = 'orderId,orderRef,barcode,status\nORD-4,REF-4,BC-4,draft\n';
    await call('imports.manifest', { source: { kind: 'content', fileName: 'm.csv', base64: Buffer.from(manifest).toString('base64') } });
    expect((await post(event('ORD-4', 'cancelled', 'draft', '09:00', { orderRef: 'REF-4', barcode: 'BC-4' }))).status).toBe(200);
    expect(await lookup('BC-4')).toMatchObject({ ok: true, value: { order: { status: 'cancelled' }, printable: { allowed: false } } });

    const [notice] = await conflicts();
    expect(notice).toMatchObject({ orderId: 'ORD-4', kind: 'terminal', applied: true, known: { status: 'draft' }, message: expect.stringContaining('before it left the station') });
    expect(conflictEvents).toEqual([expect.objectContaining({ id: notice?.id, kind: 'terminal' })]);

    const settled = await call('webhooks.settle', { id: notice?.id, decision: 'reverse' });
    expect(settled).toMatchObject({ ok: true, value: { settled: { decision: 'reverse', by: 'Lead Lisa' } } });
    expect(await lookup('BC-4')).toMatchObject({ ok: true, value: { order: { status: 'draft' }, printable: { allowed: true } } });
    expect(await conflicts()).toEqual([]);
    expect(await call('webhooks.conflicts', { includeSettled: true })).toMatchObject({ ok: true, value: [{ id: notice?.id, settled: { decision: 'reverse' } }] });
    expect(await call('webhooks.settle', { id: notice?.id, decision: 'confirm' })).toMatchObject({ ok: false, error: { code: 'CONFLICT', message: expect.stringContaining('settled already'), facts: { subject: 'conflict-settled' } } });
  });

  it('a real cancellation of an order already out of the door is applied without a notice', async () => {
    expect((await post(event('ORD-6', 'in_transit', 'expected', '09:00'))).status).toBe(200);
    expect((await post(event('ORD-6', 'cancelled', 'in_transit', '10:00'))).status).toBe(200);
    expect(await lookup('ORD-6')).toMatchObject({ ok: true, value: { order: { status: 'cancelled' } } });
    expect(await conflicts()).toEqual([]);
  });
});

describe('source allow-list', () => {
  it('refuses events from an address outside the list (403) and accepts them once the address is listed', async () => {
    expect(await call('settings.set', { webhooks: { allowedSources: ['10.20.0.0/16', '2001:db8::/32'] } })).toMatchObject({ ok: true, value: { webhooks: { allowedSources: ['10.20.0.0/16', '2001:db8::/32'] } } });
    const status = (await call('webhooks.status', {})) as { ok: true; value: CallOutput<'webhooks.status'> };
    target = `http://127.0.0.1:${status.value.port}${status.value.paths.find((entry) => entry.environment === 'test')?.path}`;
    expect((await post(event('ORD-7', 'expected', 'draft', '09:00'))).status).toBe(403);
    expect(await lookup('ORD-7')).toMatchObject({ ok: false, error: { code: 'ORDER_NOT_FOUND' } });

    await call('settings.set', { webhooks: { allowedSources: ['10.20.0.0/16', '127.0.0.1'] } });
    const again = (await call('webhooks.status', {})) as { ok: true; value: CallOutput<'webhooks.status'> };
    target = `http://127.0.0.1:${again.value.port}${again.value.paths.find((entry) => entry.environment === 'test')?.path}`;
    expect((await post(event('ORD-7', 'expected', 'draft', '09:00'))).status).toBe(200);
    expect(await lookup('ORD-7')).toMatchObject({ ok: true, value: { order: { status: 'expected' } } });

    expect(await call('settings.set', { webhooks: { allowedSources: ['10.20.0.0/33'] } })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(await call('settings.set', { webhooks: { allowedSources: ['evil.example'] } })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
  });
});
