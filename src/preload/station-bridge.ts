/**
 * Builds `window.station` from the contract: exactly one function per call and `on` for events,
 * nothing else. The IPC event object never reaches the page, so no Electron handle crosses.
 */
import { callNames, ipcChannels, isEventName, type StationApi } from '../shared/contract';

/** The slice of ipcRenderer the bridge uses (Electron's ipcRenderer satisfies it). */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

export function createStationApi(ipc: IpcRendererLike): StationApi {
  const api: Record<string, unknown> = Object.create(null);
  for (const name of callNames) {
    api[name] = (input: unknown) => ipc.invoke(ipcChannels.call, name, input ?? {});
  }
  api.on = (event: unknown, listener: unknown) => {
    if (!isEventName(event)) throw new Error(`The station has no event named ${String(event).slice(0, 80)}.`);
    if (typeof listener !== 'function') throw new Error('A listener must be a function.');
    const forward = (_event: unknown, name: unknown, payload: unknown) => {
      if (name === event) listener(payload);
    };
    ipc.on(ipcChannels.event, forward);
    return () => {
      ipc.removeListener(ipcChannels.event, forward);
    };
  };
  return Object.freeze(api) as StationApi;
}
