import { describe, expect, it } from 'vitest';
import type { CallContext, Dispatcher } from '../../../src/main/contract/dispatcher';
import { createIpcCallHandler, isTrustedSender, type SenderFrame } from '../../../src/main/electron/ipc';
import { memoryLogger } from './fakes';

const top = (url: string): SenderFrame => ({ url, parent: null });
const child = (url: string): SenderFrame => ({ url, parent: top('app://station/index.html') });

/** Records what reached the dispatcher; the point of these tests is what must not reach it. */
function recordingDispatcher() {
  const received: { name: unknown; input: unknown; context: CallContext }[] = [];
  const dispatcher: Dispatcher = {
    async dispatch(name, input, context) {
      received.push({ name, input, context });
      return { ok: true, value: 'handled' };
    },
  };
  return { dispatcher, received };
}

describe('the IPC sender check', () => {
  it('trusts only the top frame of a page served by app://station', () => {
    expect(isTrustedSender(top('app://station/index.html'))).toBe(true);
    expect(isTrustedSender(top('app://station/'))).toBe(true);
    expect(isTrustedSender(top('app://station/index.html'), 'app://station')).toBe(true);
    expect(isTrustedSender(top('app://station/index.html'), 'app://other')).toBe(false);
  });

  it('refuses subframes, other origins, look-alikes and frames already gone', () => {
    expect(isTrustedSender(child('app://station/index.html'))).toBe(false);
    expect(isTrustedSender(top('https://station/index.html'))).toBe(false);
    expect(isTrustedSender(top('app://station.evil/index.html'))).toBe(false);
    expect(isTrustedSender(top('app://other/index.html'))).toBe(false);
    expect(isTrustedSender(top('app://user@station/index.html'))).toBe(false);
    expect(isTrustedSender(top('file:///work/out/renderer/index.html'))).toBe(false);
    expect(isTrustedSender(top('devtools://devtools/bundled/inspector.html'))).toBe(false);
    expect(isTrustedSender(top(''))).toBe(false);
    expect(isTrustedSender(null)).toBe(false);
    expect(isTrustedSender(undefined)).toBe(false);
  });
});

describe('the IPC call handler', () => {
  const stationWindowId = 7;
  const setup = () => {
    const { dispatcher, received } = recordingDispatcher();
    const { logger, lines } = memoryLogger();
    const handle = createIpcCallHandler({ dispatcher, isStationContents: (id) => id === stationWindowId, logger });
    return { handle, received, lines };
  };

  it('hands a call from the station window to the dispatcher as an Electron call', async () => {
    const { handle, received } = setup();
    const result = await handle({ sender: { id: stationWindowId }, senderFrame: top('app://station/index.html') }, 'app.info', {});
    expect(result).toEqual({ ok: true, value: 'handled' });
    expect(received).toEqual([{ name: 'app.info', input: {}, context: { host: 'electron' } }]);
  });

  it('refuses a call from another frame of the window, with FORBIDDEN, before the dispatcher sees it', async () => {
    const { handle, received, lines } = setup();
    const result = await handle({ sender: { id: stationWindowId }, senderFrame: child('app://station/index.html') }, 'app.info', {});
    expect(result).toEqual({ ok: false, error: { code: 'FORBIDDEN', message: 'Calls are accepted from the station window only.' } });
    expect(received).toEqual([]);
    expect(lines.join('\n')).toContain('untrusted sender');
  });

  it('refuses a call from another webContents even when its page claims the app origin', async () => {
    const { handle, received } = setup();
    const result = await handle({ sender: { id: 99 }, senderFrame: top('app://station/index.html') }, 'app.info', {});
    expect(result.ok).toBe(false);
    expect(received).toEqual([]);
  });

  it('refuses a call whose frame has gone', async () => {
    const { handle, received } = setup();
    expect((await handle({ sender: { id: stationWindowId }, senderFrame: null }, 'app.info', {})).ok).toBe(false);
    expect(received).toEqual([]);
  });

  it('refuses an untrusted frame\'s call whose name cannot become text, logging it without throwing', async () => {
    const { handle, lines } = setup();
    const result = await handle({ sender: { id: 99 }, senderFrame: top('app://station/index.html') }, { toString: null }, {});
    expect(result).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(lines.join('\n')).toContain('of type object');
  });
});
