import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestStation, type TestStation } from '../../support/station';
import { openWebHostSession, type WebHostSession } from '../../support/web-host-session';

// An error's size is bounded whatever the request: what the page receives is at most 16 KiB.

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

const lastFrameBytes = () => Buffer.byteLength(page.frames.at(-1) ?? '', 'utf8');

describe('errors of bounded size', () => {
  it('a request with a million unknown keys is refused for its width before it is read, in a short error', async () => {
    const input = Object.fromEntries(Array.from({ length: 1_000_000 }, (_, index) => [`unknown_key_${index}`, 1]));
    const result = await page.call('settings.set', input);
    expect(lastFrameBytes()).toBeLessThanOrEqual(16 * 1024);
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', message: 'The request was not valid: an object has more than 10000 keys.', facts: { limit: 10_000 } } });
  });

  it('nine thousand unknown keys (within the width allowed) get a short error saying the rest were cut', async () => {
    const input = Object.fromEntries(Array.from({ length: 9_000 }, (_, index) => [`unknown_key_${index}`, 1]));
    const result = await page.call('settings.set', input);
    expect(lastFrameBytes()).toBeLessThanOrEqual(16 * 1024);
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', message: 'The request for settings.set was not valid.' } });
    const [first = ''] = result.error?.details ?? [];
    expect(first).toContain('unknown_key_0');
    expect(first).toMatch(/… \(\d+ more characters\)$/);
  });

  it('five thousand invalid items give the first twenty and the count of the rest', async () => {
    const result = await page.call('printing.printBundles', { bundleIds: Array.from({ length: 5000 }, () => '') });
    expect(lastFrameBytes()).toBeLessThanOrEqual(16 * 1024);
    const details = result.error?.details ?? [];
    expect(details).toHaveLength(21);
    expect(details[0]).toMatch(/^bundleIds\.0: /);
    expect(details[19]).toMatch(/^bundleIds\.19: /);
    expect(details[20]).toBe('…and 4980 more problems not listed.');
  });

});
