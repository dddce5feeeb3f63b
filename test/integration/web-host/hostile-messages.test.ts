/**
 * A page's socket message the station could not walk: nested 60,000 deep (an array, an object),
 * with or without a readable call id. Each is refused on its own (as that call's INVALID_INPUT,
 * or by closing that one socket), and the web host goes on answering: 1,000 calls afterwards.
 */
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestStation, type TestStation } from '../../support/station';
import { openWebHostSession, type WebHostSession } from '../../support/web-host-session';

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

/** A second socket of the signed-in page, sending `text` as it is; resolves with the first answer or the close code. */
function sendRaw(text: string): Promise<{ answer: unknown } | { closed: number }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${page.host.port}/station`, { headers: { cookie: page.cookie, origin: page.host.url } });
    socket.once('open', () => socket.send(text));
    socket.once('error', reject);
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as { type: string };
      if (message.type !== 'result') return;
      socket.close();
      resolve({ answer: message });
    });
    socket.once('close', (code) => resolve({ closed: code }));
  });
}

const deepArray = `${'['.repeat(60_000)}${']'.repeat(60_000)}`;
const deepObject = `${'{"a":'.repeat(60_000)}1${'}'.repeat(60_000)}`;

describe('messages nested beyond any call', () => {
  it('answers a call whose input nests 60,000 deep with INVALID_INPUT naming the limit, on the same socket', async () => {
    for (const input of [deepArray, deepObject]) {
      const answer = await sendRaw(`{"type":"call","id":7,"name":"settings.set","input":${input}}`);
      expect(answer).toEqual({
        answer: { type: 'result', id: 7, result: { ok: false, error: { code: 'INVALID_INPUT', message: 'The request was not valid: objects and arrays nest more than 64 deep.', facts: { limit: 64 } } } },
      });
    }
  });

  it('closes a socket whose message is nested 60,000 deep with no call in front, and answers 1,000 calls afterwards', async () => {
    expect(await sendRaw(deepArray)).toEqual({ closed: 1003 });
    expect(await sendRaw(deepObject)).toEqual({ closed: 1003 });
    const answers = await Promise.all(Array.from({ length: 1_000 }, () => page.call('settings.get', {})));
    expect(answers.filter((answer) => answer.ok)).toHaveLength(1_000);
  });
});
