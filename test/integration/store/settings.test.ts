import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { composeStation } from '../../../src/main/composition';
import { createLogger } from '../../../src/main/logging/logger';
import type { CallOutput } from '../../../src/shared/contract';
import { createTestStation, memoryKeyStore, type TestStation } from '../../support/station';

let test: TestStation;
const call = (name: string, input: unknown) => test.station.dispatcher.dispatch(name, input, { host: 'web' });

beforeEach(async () => {
  test = await createTestStation();
});
afterEach(async () => {
  await test.dispose();
});

describe('settings through the contract', () => {
  it('starts on the sandbox with the receiver off and no API addresses', async () => {
    expect(await call('settings.get', {})).toEqual({
      ok: true,
      value: {
        environment: 'sandbox',
        stationName: 'Packing bench',
        operator: '',
        apiBaseUrls: { test: null, live: null },
        webhooks: { enabled: false, host: '127.0.0.1', port: 8787, bodyLimitBytes: 65536 },
        scannerLayout: 'us',
      },
    });
  });

  it('changes only what it is given and keeps it in the data folder across restarts', async () => {
    const changed = await call('settings.set', {
      environment: 'live',
      stationName: '  Bench 3  ',
      operator: 'Sam',
      apiBaseUrls: { live: 'https://api.delivery.example' },
      webhooks: { port: 9090 },
      scannerLayout: 'fr',
    });
    expect(changed).toMatchObject({
      ok: true,
      value: { environment: 'live', stationName: 'Bench 3', operator: 'Sam', apiBaseUrls: { test: null, live: 'https://api.delivery.example' }, webhooks: { port: 9090, host: '127.0.0.1' }, scannerLayout: 'fr' },
    });
    await call('settings.set', { operator: 'Kim' });
    const restarted = await composeStation({ dataDir: test.dataDir, host: 'web', version: '0', logger: createLogger(() => undefined), keyStore: memoryKeyStore() });
    try {
      const settings = await restarted.dispatcher.dispatch('settings.get', {}, { host: 'web' });
      expect(settings).toMatchObject({ ok: true, value: { environment: 'live', stationName: 'Bench 3', operator: 'Kim', webhooks: { port: 9090 }, scannerLayout: 'fr' } });
      expect(await restarted.dispatcher.dispatch('app.info', {}, { host: 'web' })).toMatchObject({ ok: true, value: { environment: 'live', stationName: 'Bench 3', keySet: false } });
    } finally {
      await restarted.close();
    }
  });

  it('refuses values that cannot work, changing nothing', async () => {
    for (const change of [
      { apiBaseUrls: { live: 'http://api.delivery.example' } },
      { apiBaseUrls: { test: 'https://user:pw@api.example' } },
      { apiBaseUrls: { test: 'not a url' } },
      { stationName: '   ' },
      { environment: 'staging' },
      { webhooks: { port: 70000 } },
      { webhooks: { host: 'example.com' } },
      { webhooks: { bodyLimitBytes: 10 } },
      { webhooks: { enabled: true } },
      { scannerLayout: 'azerty' },
      { unknown: 1 },
    ]) {
      expect(await call('settings.set', change), JSON.stringify(change)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    }
    expect(await call('settings.set', { apiBaseUrls: { test: 'http://127.0.0.1:4100/test' } })).toMatchObject({ ok: true });
    expect(await call('settings.get', {})).toMatchObject({ ok: true, value: { environment: 'sandbox', stationName: 'Packing bench' } });
  });

  it('moves a running webhook receiver to its new port at once', async () => {
    await call('settings.set', { webhooks: { port: 0 } });
    const first = await call('webhooks.start', {});
    const before = (first.ok ? first.value : null) as CallOutput<'webhooks.start'> | null;
    expect(before?.running).toBe(true);
    const probe = await import('node:net');
    const freePort = await new Promise<number>((resolve) => {
      const server = probe.createServer().listen(0, '127.0.0.1', () => {
        const port = (server.address() as { port: number }).port;
        server.close(() => resolve(port));
      });
    });
    await call('settings.set', { webhooks: { port: freePort } });
    expect(await call('webhooks.status', {})).toMatchObject({ ok: true, value: { running: true, port: freePort } });
    const answer = await fetch(`http://127.0.0.1:${freePort}${before?.paths[0]?.path}`);
    expect(answer.status).toBe(405);
    await call('webhooks.stop', {});
  });
});
