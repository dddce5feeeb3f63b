import { describe, expect, it } from 'vitest';
import { createDispatcher, type Handlers } from '../../../src/main/contract/dispatcher';
import { environmentSessions } from '../../../src/main/environment-session';
import { createLogger } from '../../../src/main/logging/logger';
import { createStorePlace } from '../../../src/main/store/store-place';
import { StationError } from '../../../src/shared/errors';

const info = { name: 'Packing Station', version: '1.2.3', environment: 'sandbox', keySet: true, host: 'web', stationName: 'Bench 3' } as const;

function dispatcherWith(handler: Handlers['app.info'], environment: () => 'sandbox' | 'test' = () => 'test') {
  const lines: string[] = [];
  const readied: string[] = [];
  const sessions = environmentSessions({
    environment,
    readyFor: async (name) => void readied.push(name),
    clientFor: () => Promise.reject(new Error('these tests use no delivery client')),
  });
  const dispatcher = createDispatcher({ 'app.info': handler } as unknown as Handlers, createLogger((line) => lines.push(line)), sessions);
  return { dispatcher, lines, readied };
}

describe('dispatcher', () => {
  it('resolves the environment once per call and readies it only for the calls that use it, at most once each', async () => {
    let current: 'sandbox' | 'test' = 'sandbox';
    let readying = true;
    const { dispatcher, readied } = dispatcherWith(async (_input, { session }) => {
      if (readying) {
        await session.ready();
        await session.ready();
      }
      return { ...info, environment: session.environment };
    }, () => current);
    expect(await dispatcher.dispatch('app.info', {}, { host: 'web' })).toMatchObject({ ok: true, value: { environment: 'sandbox' } });
    expect(readied).toEqual(['sandbox']);
    current = 'test';
    expect(await dispatcher.dispatch('app.info', {}, { host: 'web' })).toMatchObject({ ok: true, value: { environment: 'test' } });
    expect(readied).toEqual(['sandbox', 'test']);
    readying = false;
    await dispatcher.dispatch('app.info', {}, { host: 'web' });
    expect(readied).toEqual(['sandbox', 'test']);
  });

  it("settles a call's journal place at its first ask and holds it until the call has answered, also when it fails", async () => {
    const place = createStorePlace();
    const happened: string[] = [];
    let entered: () => void = () => undefined;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const sessions = environmentSessions({ environment: () => 'test', readyFor: async () => undefined, clientFor: () => Promise.reject(new Error('no client here')), enterPlace: () => place.enter() });
    const readsTheJournal: Handlers['app.info'] = async (_input, { session }) => {
      const at = await session.place();
      entered();
      await released;
      happened.push(`call answered at ${at}, the journal at ${place.current}`);
      throw new StationError('CONFLICT', 'refused after reading the journal');
    };
    const dispatcher = createDispatcher({ 'app.info': readsTheJournal } as unknown as Handlers, createLogger(() => undefined), sessions);
    const answer = dispatcher.dispatch('app.info', {}, { host: 'web' });
    await inside;
    const moved = place.moveToBench({ reason: 'database maintenance', by: 'Lead Kim' }).then(() => happened.push(`moved to ${place.current}`));
    release();
    expect(await answer).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
    await moved;
    expect(happened).toEqual(['call answered at shared, the journal at shared', 'moved to bench']);
  });

  it('returns the handler value as data', async () => {
    const { dispatcher } = dispatcherWith(() => info);
    expect(await dispatcher.dispatch('app.info', {}, { host: 'web' })).toEqual({ ok: true, value: info });
  });

  it('answers an unknown call with UNKNOWN_CALL instead of throwing', async () => {
    const { dispatcher } = dispatcherWith(() => info);
    const result = await dispatcher.dispatch('orders.deleteEverything', {}, { host: 'web' });
    expect(result).toMatchObject({ ok: false, error: { code: 'UNKNOWN_CALL' } });
  });

  it('does not treat inherited object properties as calls', async () => {
    const { dispatcher } = dispatcherWith(() => info);
    expect(await dispatcher.dispatch('constructor', {}, { host: 'web' })).toMatchObject({ ok: false, error: { code: 'UNKNOWN_CALL' } });
    expect(await dispatcher.dispatch(42, {}, { host: 'web' })).toMatchObject({ ok: false, error: { code: 'UNKNOWN_CALL' } });
  });

  it('answers a name that cannot become text (an object whose toString is null, as IPC may carry) with UNKNOWN_CALL, never a rejection (found by fuzzing)', async () => {
    const { dispatcher } = dispatcherWith(() => info);
    expect(await dispatcher.dispatch({ toString: null }, {}, { host: 'electron' })).toEqual({
      ok: false,
      error: { code: 'UNKNOWN_CALL', message: 'The station has no call named of type object.' },
    });
  });

  it('rejects input outside the schema before the handler runs', async () => {
    let ran = false;
    const { dispatcher } = dispatcherWith(() => {
      ran = true;
      return info;
    });
    const result = await dispatcher.dispatch('app.info', { extra: 'field' }, { host: 'web' });
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(ran).toBe(false);
  });

  it('names the cause a schema gave its refusal (a key with a space inside, a store address with a password) as the subject the screen words', async () => {
    let ran = false;
    const handlers = {
      'keys.set': () => {
        ran = true;
        return { environment: 'test', keySet: true, verification: null };
      },
      'store.test': () => {
        ran = true;
        return { server: 'db:5432', schemaVersion: 1 };
      },
    } as unknown as Handlers;
    const sessions = environmentSessions({ environment: () => 'test', readyFor: async () => undefined, clientFor: () => Promise.reject(new Error('no client here')) });
    const dispatcher = createDispatcher(handlers, createLogger(() => undefined), sessions);
    const key = (text: string) => dispatcher.dispatch('keys.set', { environment: 'test', key: text }, { host: 'web' });
    expect(await key('sk_test_ABCD EFGH1234')).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', facts: { subject: 'key-space' } } });
    expect(await key('  sk_test_ABCD\nEFGH1234  ')).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', facts: { subject: 'key-space' } } });
    expect(await key('sk_1')).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', facts: { subject: 'key-short' } } });
    expect(await key('sk_test_ÄBCDEFGH')).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', facts: { subject: 'key-characters' } } });
    expect(await dispatcher.dispatch('store.test', { address: 'mysql://db/packing', tls: 'verify-full' }, { host: 'web' })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT', facts: { subject: 'store-address-form' } },
    });
    // A refusal no schema named keeps the plain words.
    const unnamed = await dispatcher.dispatch('keys.set', { environment: 'nowhere', key: 'sk_test_ABCDEFGH' }, { host: 'web' });
    expect(unnamed).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(unnamed.ok === false && unnamed.error.facts).toBeFalsy();
    expect(ran).toBe(false);
    // Trimmed and whole, the key passes.
    expect(await key('  sk_test_ABCDEFGH1234  ')).toMatchObject({ ok: true });
  });

  it('passes a StationError through with its code, message and details', async () => {
    const { dispatcher } = dispatcherWith(() => {
      throw new StationError('KEY_REJECTED', 'The API key was rejected.', ['401 from the service']);
    });
    expect(await dispatcher.dispatch('app.info', {}, { host: 'web' })).toEqual({
      ok: false,
      error: { code: 'KEY_REJECTED', message: 'The API key was rejected.', details: ['401 from the service'] },
    });
  });

  it('hides unexpected exceptions behind INTERNAL and logs them', async () => {
    const { dispatcher, lines } = dispatcherWith(() => {
      throw new Error('database is locked');
    });
    const result = await dispatcher.dispatch('app.info', {}, { host: 'web' });
    expect(result).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
    expect(JSON.stringify(result)).not.toContain('database is locked');
    expect(lines.join('\n')).toContain('database is locked');
  });

  it('refuses to send output that breaks the contract', async () => {
    const { dispatcher } = dispatcherWith(() => ({ ...info, environment: 'production' }) as never);
    expect(await dispatcher.dispatch('app.info', {}, { host: 'web' })).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
  });

  it('strips fields the contract does not declare from the output', async () => {
    const { dispatcher } = dispatcherWith(() => ({ ...info, apiKey: 'sk_live_secret' }) as never);
    const result = await dispatcher.dispatch('app.info', {}, { host: 'web' });
    expect(result.ok).toBe(true);
    expect(JSON.stringify(result)).not.toContain('sk_live_secret');
  });

  it('bounds a handler error with many long multi-byte details to 16 KiB, saying how many were left out', async () => {
    const details = Array.from({ length: 30 }, (_, index) => `${index}: ${'€'.repeat(2000)}`);
    const { dispatcher } = dispatcherWith(() => {
      throw new StationError('PRINTER_ERROR', `The printer said ${'ü'.repeat(5000)}`, details);
    });
    const result = await dispatcher.dispatch('app.info', {}, { host: 'web' });
    if (result.ok) throw new Error('expected an error');
    expect(Buffer.byteLength(JSON.stringify(result.error), 'utf8')).toBeLessThanOrEqual(16 * 1024);
    expect(result.error.code).toBe('PRINTER_ERROR');
    expect(result.error.message).toMatch(/^The printer said ü+… \(4017 more characters\)$/);
    const kept = result.error.details ?? [];
    expect(kept.at(0)).toMatch(/^0: €+… \(1703 more characters\)$/);
    const listed = kept.length - 1;
    expect(listed).toBeGreaterThan(0);
    expect(kept.at(-1)).toBe(`…and ${30 - listed} more problems not listed.`);
  });
});
