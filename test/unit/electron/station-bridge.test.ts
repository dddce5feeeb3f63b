import { describe, expect, it } from 'vitest';
import { callNames, ipcChannels } from '../../../src/shared/contract';
import { createStationApi, type IpcRendererLike } from '../../../src/preload/station-bridge';

type Listener = (event: unknown, ...args: unknown[]) => void;

/** A stand-in for ipcRenderer: records invokes and lets the test push events from "main". */
class FakeIpcRenderer implements IpcRendererLike {
  invoked: unknown[][] = [];
  listeners = new Map<string, Set<Listener>>();
  async invoke(channel: string, ...args: unknown[]) {
    this.invoked.push([channel, ...args]);
    return { ok: true, value: null };
  }
  on(channel: string, listener: Listener) {
    if (!this.listeners.has(channel)) this.listeners.set(channel, new Set());
    this.listeners.get(channel)?.add(listener);
  }
  removeListener(channel: string, listener: Listener) {
    this.listeners.get(channel)?.delete(listener);
  }
  push(name: string, payload: unknown) {
    for (const listener of this.listeners.get(ipcChannels.event) ?? []) listener({ sender: 'ipc-event-object' }, name, payload);
  }
}

describe('window.station as the preload builds it', () => {
  it('has exactly one function per contract call, plus on, and nothing else', () => {
    const api = createStationApi(new FakeIpcRenderer());
    expect(Object.keys(api).sort()).toEqual([...callNames, 'on'].sort());
    for (const key of Object.keys(api)) expect(typeof (api as Record<string, unknown>)[key]).toBe('function');
    expect(Object.isFrozen(api)).toBe(true);
    expect(Object.getPrototypeOf(api)).toBe(null);
  });

  it('sends each call over the contract channel only, with its name and input', async () => {
    const ipc = new FakeIpcRenderer();
    const api = createStationApi(ipc) as unknown as Record<string, (input?: unknown) => Promise<unknown>>;
    await api['app.info']?.({});
    await api['app.info']?.();
    expect(ipc.invoked).toEqual([
      [ipcChannels.call, 'app.info', {}],
      [ipcChannels.call, 'app.info', {}],
    ]);
  });

  it('delivers an event payload without the IPC event object, and stops after unsubscribing', () => {
    const ipc = new FakeIpcRenderer();
    const api = createStationApi(ipc);
    const received: unknown[] = [];
    const off = api.on('app.notice', (payload) => received.push(payload));
    ipc.push('app.notice', { level: 'info', message: 'hello' });
    ipc.push('some.other', { level: 'info', message: 'not for this listener' });
    off();
    ipc.push('app.notice', { level: 'info', message: 'after' });
    expect(received).toEqual([{ level: 'info', message: 'hello' }]);
  });

  it('refuses to listen to an event the contract does not have', () => {
    const api = createStationApi(new FakeIpcRenderer()) as unknown as { on(event: string, listener: () => void): unknown };
    expect(() => api.on('anything', () => undefined)).toThrow(/no event named anything/);
  });
});
