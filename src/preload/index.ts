/**
 * The preload: the renderer's only door to the station. It exposes exactly the contract's calls
 * (one function each) and its events as `window.station`; nothing else of Electron crosses.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { callNames, ipcChannels, isEventName, type EventName } from '../shared/contract';

const api: Record<string, unknown> = Object.fromEntries(
  callNames.map((name) => [name, (input: unknown) => ipcRenderer.invoke(ipcChannels.call, name, input ?? {})]),
);

api.on = (event: EventName, listener: (payload: unknown) => void) => {
  if (!isEventName(event)) throw new Error(`The station has no event named ${String(event)}.`);
  const forward = (_sender: IpcRendererEvent, name: unknown, payload: unknown) => {
    if (name === event) listener(payload);
  };
  ipcRenderer.on(ipcChannels.event, forward);
  return () => {
    ipcRenderer.removeListener(ipcChannels.event, forward);
  };
};

contextBridge.exposeInMainWorld('station', Object.freeze(api));
