/**
 * The webhook receiver against anything a sender can post: the service's event mutated field by
 * field, with duplicate keys, in other encodings (UTF-16, Latin-1, a byte order mark), with NUL
 * raw or escaped, nested or widened past the limits, or any bytes at all. Over a real socket, to
 * the station's real receiver and store: every request is answered (200, or a 4xx saying why, or
 * 413 past the body limit) within seconds, none is the receiver's own failure (500), an event
 * holding a NUL is never stored, and afterwards the receiver still takes the service's events and
 * reports itself healthy. The payload's schema alone never throws on any JSON.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookJsonLimits } from '../../src/main/orders/webhook-receiver';
import { WebhookPayloadSchema } from '../../src/shared/api/schemas';
import type { CallOutput } from '../../src/shared/contract';
import { statusEvent } from '../integration/webhooks/payloads';
import { createTestStation, type TestStation } from '../support/station';
import { fuzz, timed, timedAsync, quickMs } from './budget';

let test: TestStation;
let url: string;
let base: string;
const call = (name: string, input: unknown) => test.station.dispatcher.dispatch(name, input, { host: 'web' });

beforeAll(async () => {
  test = await createTestStation();
  await call('settings.set', { environment: 'test', webhooks: { host: '127.0.0.1', port: 0 } });
  const started = await call('webhooks.start', {});
  if (!started.ok) throw new Error(started.error.message);
  const status = started.value as CallOutput<'webhooks.status'>;
  base = `http://127.0.0.1:${status.port}`;
  url = `${base}${status.paths.find((entry) => entry.environment === 'test')?.path}`;
});
afterAll(async () => {
  await test.dispose();
});

const anyJson = fc.jsonValue({ maxDepth: 6 });
const fieldNames = Object.keys(statusEvent('ORD-1', 'draft', null));

/** The service's event with some fields replaced by any JSON, removed, or joined by new ones. */
const mutatedEvent = fc
  .record({
    id: fc.integer({ min: 1, max: 10_000 }),
    replaced: fc.dictionary(fc.constantFrom(...fieldNames), anyJson, { maxKeys: 4 }),
    removed: fc.array(fc.constantFrom(...fieldNames), { maxLength: 3 }),
    added: fc.dictionary(fc.string({ maxLength: 12 }), anyJson, { maxKeys: 4 }),
  })
  .map(({ id, replaced, removed, added }) => {
    const event: Record<string, unknown> = { ...statusEvent(`ORD-${id}`, 'in_transit', 'expected'), ...added, ...replaced };
    for (const name of removed) delete event[name];
    return event;
  });

/** A body as bytes, and the content type it is sent with. */
interface Body {
  bytes: Buffer;
  contentType: string;
  /** Whether the text holds a NUL once parsed (raw or escaped): such an event must never be stored. */
  holdsNul: boolean;
}
const utf8 = (text: string, contentType = 'application/json; charset=utf-8'): Body => ({ bytes: Buffer.from(text, 'utf8'), contentType, holdsNul: false });

const bodies: fc.Arbitrary<Body> = fc.oneof(
  mutatedEvent.map((event) => utf8(JSON.stringify(event))),
  // Duplicate keys: JSON.parse keeps the last; the receiver must answer either way.
  fc.tuple(mutatedEvent, fc.constantFrom(...fieldNames), anyJson).map(([event, name, other]) => utf8(JSON.stringify(event).replace(/^\{/, `{${JSON.stringify(name)}:${JSON.stringify(other)},`))),
  // Other encodings of a valid event.
  fc.tuple(mutatedEvent, fc.constantFrom('utf16le', 'latin1', 'bom', 'ucs2-bom') as fc.Arbitrary<'utf16le' | 'latin1' | 'bom' | 'ucs2-bom'>).map(([event, encoding]) => {
    const text = JSON.stringify(event);
    const bytes =
      encoding === 'bom' ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]) : encoding === 'ucs2-bom' ? Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]) : Buffer.from(text, encoding);
    return { bytes, contentType: 'application/json', holdsNul: false };
  }),
  // A NUL, escaped in a field or raw in the text.
  fc.tuple(mutatedEvent, fc.constantFrom(...fieldNames), fc.boolean()).map(([event, name, raw]) => {
    const text = JSON.stringify({ ...event, [name]: 'before\u0000after' });
    return { bytes: Buffer.from(raw ? text.replace('\\u0000', '\u0000') : text), contentType: 'application/json', holdsNul: true };
  }),
  // Nesting and width around and far past the limits.
  fc.tuple(fc.integer({ min: 1, max: 40_000 }), fc.constantFrom('[', '{"a":')).map(([depth, open]) => utf8(`${open.repeat(depth)}1${(open === '[' ? ']' : '}').repeat(depth)}`)),
  fc.integer({ min: webhookJsonLimits.maxKeys - 2, max: webhookJsonLimits.maxKeys * 8 }).map((keys) => utf8(JSON.stringify(Object.fromEntries(Array.from({ length: keys }, (_, n) => [`k${n}`, n]))))),
  fc.integer({ min: webhookJsonLimits.maxItems - 2, max: webhookJsonLimits.maxItems * 8 }).map((items) => utf8(JSON.stringify({ ...statusEvent('ORD-2', 'draft', null), pods: Array.from({ length: items }, () => 0) }))),
  // Any bytes, under any JSON content type.
  fc.tuple(fc.uint8Array({ maxLength: 2000 }), fc.constantFrom('application/json', 'application/json; charset=utf-16', 'Application/JSON;charset=latin1')).map(([bytes, contentType]) => ({ bytes: Buffer.from(bytes), contentType, holdsNul: false })),
);

describe('the webhook receiver (fuzzed)', () => {
  it('the payload schema answers any JSON value within 250 ms, and never throws', () => {
    fc.assert(
      fc.property(fc.oneof(anyJson, mutatedEvent), (value) => {
        const { value: parsed, ms } = timed(() => WebhookPayloadSchema.safeParse(value));
        expect(typeof parsed.success).toBe('boolean');
        expect(ms).toBeLessThan(quickMs);
      }),
      fuzz(2000),
    );
  });

  it('answers every body a sender can post with 200 or a 4xx within 5 s, never 500, stores no NUL, and stays healthy', async () => {
    await fc.assert(
      fc.asyncProperty(bodies, async (body) => {
        const { value: response, ms } = await timedAsync(() => fetch(url, { method: 'POST', headers: { 'content-type': body.contentType }, body: body.bytes }));
        await response.arrayBuffer();
        expect(ms).toBeLessThan(5000);
        expect([200, 400, 413, 422]).toContain(response.status);
        if (body.holdsNul) expect(response.status).toBe(400);
      }),
      fuzz(200),
    );
    expect(test.station.services.webhooks.status().requests.failed).toBe(0);
    expect((await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(statusEvent('ORD-9999', 'draft', null)) })).status).toBe(200);
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', requests: { failed: 0 } });
  });
});
