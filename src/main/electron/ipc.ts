import type { CallResult } from '../../shared/contract';
import { describeCallName, type Dispatcher } from '../contract/dispatcher';
import type { Logger } from '../logging/logger';
import { APP_ORIGIN } from './app-protocol';

/** What an IPC event tells about its sender (Electron's WebFrameMain satisfies it). */
export interface SenderFrame {
  readonly url: string;
  readonly parent: SenderFrame | null;
}

export interface IpcCallEvent {
  readonly senderFrame: SenderFrame | null;
  readonly sender: { readonly id: number };
}

/**
 * True only for the top frame of a page served from `appOrigin` (the app itself): a subframe, a
 * frame that has navigated elsewhere, or a frame already gone (null) is refused. The origin is
 * compared from a parsed URL (scheme and host), never by string prefix, so `app://station.evil`
 * and `app://user@station` do not pass.
 */
export function isTrustedSender(frame: SenderFrame | null | undefined, appOrigin: string = APP_ORIGIN): boolean {
  if (!frame || frame.parent !== null) return false;
  try {
    const url = new URL(frame.url);
    if (url.username !== '' || url.password !== '') return false;
    // Node's URL gives custom schemes an opaque origin ("null"), so scheme and host are compared.
    return `${url.protocol}//${url.host}` === appOrigin;
  } catch {
    return false;
  }
}

export interface IpcCallHandlerOptions {
  dispatcher: Dispatcher;
  /** Whether the webContents with this id is one of the station's windows. */
  isStationContents(id: number): boolean;
  logger: Logger;
}

/**
 * The handler for the contract's one IPC channel: refuses callers other than the station's own
 * window and page, then hands the call to the dispatcher, which parses the input and never throws.
 */
export function createIpcCallHandler(options: IpcCallHandlerOptions) {
  return async (event: IpcCallEvent, name: unknown, input: unknown): Promise<CallResult<unknown>> => {
    if (!options.isStationContents(event.sender.id) || !isTrustedSender(event.senderFrame)) {
      options.logger.warn('call from an untrusted sender refused', { call: describeCallName(name), url: event.senderFrame?.url ?? null });
      return { ok: false, error: { code: 'FORBIDDEN', message: 'Calls are accepted from the station window only.' } };
    }
    return options.dispatcher.dispatch(name, input, { host: 'electron' });
  };
}
