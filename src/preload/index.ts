/**
 * The preload: the renderer's only door to the station. It runs sandboxed (bundled whole, as
 * CommonJS) and exposes exactly the contract's calls and events as `window.station`.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { createStationApi } from './station-bridge';

contextBridge.exposeInMainWorld('station', createStationApi(ipcRenderer));
