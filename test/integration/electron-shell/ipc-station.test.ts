import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIpcCallHandler } from '../../../src/main/electron/ipc';
import { createLogger } from '../../../src/main/logging/logger';
import { createTestStation, type TestStation } from '../../support/station';

let test: TestStation;
beforeAll(async () => {
  test = await createTestStation({ host: 'electron' });
});
afterAll(() => test.dispose());

describe('the IPC channel over the real station', () => {
  const handler = () =>
    createIpcCallHandler({ dispatcher: test.station.dispatcher, isStationContents: (id) => id === 1, logger: createLogger(() => undefined) });

  it('answers the station window with the app info', async () => {
    const result = await handler()({ sender: { id: 1 }, senderFrame: { url: 'app://station/index.html', parent: null } }, 'app.info', {});
    expect(result).toMatchObject({ ok: true, value: { host: 'electron', environment: 'sandbox' } });
  });

  it('answers an embedded frame with FORBIDDEN and no data', async () => {
    const frame = { url: 'app://station/index.html', parent: { url: 'app://station/index.html', parent: null } };
    const result = await handler()({ sender: { id: 1 }, senderFrame: frame }, 'app.info', {});
    expect(result).toEqual({ ok: false, error: { code: 'FORBIDDEN', message: 'Calls are accepted from the station window only.' } });
  });

  it('still parses the input of a trusted call at the boundary', async () => {
    const result = await handler()({ sender: { id: 1 }, senderFrame: { url: 'app://station/', parent: null } }, 'app.info', { extra: 1 });
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
  });
});
