import type { StationApi } from '../../shared/contract';

declare global {
  interface Window {
    /** Set by the Electron preload; absent in a browser, where the web host's socket carries the calls. */
    readonly station?: StationApi;
  }
}
