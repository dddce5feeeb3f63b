/**
 * The web host's socket messages and the contract they carry. At the schema level, for every call
 * of the contract and any input: the message schemas and every call's input schema answer within
 * 250 ms without throwing, and the dispatcher turns every input it refuses into INVALID_INPUT data
 * of at most 16 KiB. Over a real socket to the real web host and station: any text a page could
 * send is answered as that call's result, or closes that one socket (1003), and the host goes on
 * answering calls afterwards.
 */
import fc from 'fast-check';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDispatcher, type Handlers } from '../../src/main/contract/dispatcher';
import { environmentSessions } from '../../src/main/environment-session';
import { createLogger } from '../../src/main/logging/logger';
import { callNames, calls } from '../../src/shared/contract';
import { StationError } from '../../src/shared/errors';
import { ClientMessageSchema, clientMessageLimits, leadingCallId, ServerMessageSchema } from '../../src/shared/web-protocol';
import { createTestStation, type TestStation } from '../support/station';
import { openWebHostSession, type WebHostSession } from '../support/web-host-session';
import { fuzz, quickMs, timed } from './budget';

const anyJson = fc.jsonValue({ maxDepth: 5 });
/** An input near what a page sends: an object of known-looking keys holding any JSON. */
const inputLike = fc.oneof(anyJson, fc.dictionary(fc.constantFrom('scan', 'orderId', 'bundleIds', 'environment', 'webhooks', 'source', 'kind', 'limit', 'printerId', 'base64', 'remote', 'name'), anyJson, { maxKeys: 5 }));

describe('the web protocol (fuzzed)', () => {
  it('reads the call id at the head of any message the page writes, and nothing from other text', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 999_999_999_999_999 }), fc.string({ maxLength: 30 }), anyJson, fc.string({ unit: 'binary', maxLength: 80 }), (id, name, input, other) => {
        expect(leadingCallId(JSON.stringify({ type: 'call', id, name, input }))).toBe(id);
        const found = leadingCallId(other);
        expect(found === null || Number.isSafeInteger(found)).toBe(true);
      }),
      fuzz(2000),
    );
  });

  it('every message schema and every call\'s input schema answers any value within 250 ms, never throwing', () => {
    fc.assert(
      fc.property(fc.constantFrom(...callNames), inputLike, (name, input) => {
        const { ms } = timed(() => {
          expect(typeof calls[name].input.safeParse(input).success).toBe('boolean');
          expect(typeof ClientMessageSchema.safeParse({ type: 'call', id: 1, name, input }).success).toBe('boolean');
          expect(typeof ServerMessageSchema.safeParse(input).success).toBe('boolean');
        });
        expect(ms).toBeLessThan(quickMs);
      }),
      fuzz(2000),
    );
  });

  it('the dispatcher answers any name and input with data: INVALID_INPUT of at most 16 KiB when it refuses, never a throw', async () => {
    // Each handler only says it was reached: the boundary under test is everything before it.
    const reached = new StationError('NOT_FOUND', 'reached the handler');
    const handlers = Object.fromEntries(callNames.map((name) => [name, () => Promise.reject(reached)])) as unknown as Handlers;
    const sessions = environmentSessions({ environment: () => 'test', readyFor: async () => undefined, clientFor: () => Promise.reject(new Error('no client in this test')) });
    const dispatcher = createDispatcher(handlers, createLogger(() => undefined), sessions);
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.constantFrom(...callNames), fc.string({ maxLength: 40 }), anyJson), fc.oneof(inputLike, fc.integer({ min: 1, max: 2_000 }).map((keys) => Object.fromEntries(Array.from({ length: keys }, (_, n) => [`unknown_${n}`, n])))), async (name, input) => {
        const result = await dispatcher.dispatch(name, input, { host: 'web' });
        expect(result.ok).toBe(false);
        if (!result.ok) {
          expect(['INVALID_INPUT', 'UNKNOWN_CALL', 'NOT_FOUND']).toContain(result.error.code);
          expect(Buffer.byteLength(JSON.stringify(result.error))).toBeLessThanOrEqual(16 * 1024);
        }
      }),
      fuzz(300),
    );
  });

  describe('over the web host\'s socket', () => {
    let test: TestStation;
    let page: WebHostSession;
    beforeAll(async () => {
      test = await createTestStation();
      page = await openWebHostSession(test.station);
    });
    afterAll(async () => {
      await page.close();
      await test.dispose();
    });

    /** Sends `text` on a socket of its own; the first result, or the close code. */
    const exchange = (text: string) =>
      new Promise<{ result: { id: number } } | { closed: number }>((resolve, reject) => {
        const socket = new WebSocket(`ws://127.0.0.1:${page.host.port}/station`, { headers: { cookie: page.cookie, origin: page.host.url } });
        socket.once('open', () => socket.send(text));
        socket.once('error', reject);
        socket.on('message', (data) => {
          const message = JSON.parse(data.toString()) as { type: string; id: number };
          if (message.type !== 'result') return;
          socket.close();
          resolve({ result: message });
        });
        socket.once('close', (code) => resolve({ closed: code }));
      });

    // Calls that read only: any of them valid by chance changes nothing in the station.
    const readingCalls = ['app.info', 'settings.get', 'orders.count', 'imports.recent', 'upload.list', 'store.get', 'webhooks.status', 'no.such.call'];
    const message = fc.oneof(
      fc.tuple(fc.integer({ min: 0, max: 1e9 }), fc.constantFrom(...readingCalls), inputLike).map(([id, name, input]) => ({ text: JSON.stringify({ type: 'call', id, name, input }), id })),
      fc.tuple(fc.integer({ min: 0, max: 1e9 }), fc.integer({ min: 1, max: 5_000 }), fc.constantFrom('[', '{"a":')).map(([id, depth, open]) => ({ text: `{"type":"call","id":${id},"name":"settings.set","input":${open.repeat(depth)}1${(open === '[' ? ']' : '}').repeat(depth)}}`, id })),
      fc.tuple(fc.integer({ min: 0, max: 1e9 }), fc.integer({ min: clientMessageLimits.maxKeys - 1, max: clientMessageLimits.maxKeys + 50 })).map(([id, keys]) => ({ text: JSON.stringify({ type: 'call', id, name: 'settings.set', input: Object.fromEntries(Array.from({ length: keys }, (_, n) => [`k${n}`, 0])) }), id })),
      fc.oneof(fc.string({ unit: 'binary', maxLength: 200 }), anyJson.map((value) => JSON.stringify(value))).map((text) => ({ text, id: null })),
    );

    it('answers every call as itself, however deep or wide its input, closes the socket of any other text, and answers calls afterwards', async () => {
      await fc.assert(
        fc.asyncProperty(message, async ({ text, id }) => {
          const answer = await exchange(text);
          // A call is always answered as itself, however deep or wide its input; other text may close its socket.
          if (id !== null) expect(answer).toMatchObject({ result: { id } });
          else if ('closed' in answer) expect(answer.closed).toBe(1003);
        }),
        fuzz(100),
      );
      expect(await page.call('settings.get', {})).toMatchObject({ ok: true });
    });
  });
});
