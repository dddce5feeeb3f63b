import type { CallResult } from '../../shared/contract';
import type { Dispatcher } from '../contract/dispatcher';
import type { Logger } from '../logging/logger';
import { isAppUrl } from './app-protocol';

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
 * True only for the top frame of a page served by the app itself: a subframe, a frame that has
 * navigated elsewhere, or a frame already gone (null) is refused.
 */
export function isTrustedSender(frame: SenderFrame | null | undefined): boolean {
  if (!frame || frame.parent !== null) return false;
  return isAppUrl(frame.url);
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
      options.logger.warn('call from an untrusted sender refused', { call: String(name).slice(0, 80), url: event.senderFrame?.url ?? null });
      return { ok: false, error: { code: 'FORBIDDEN', message: 'Calls are accepted from the station window only.' } };
    }
    return options.dispatcher.dispatch(name, input, { host: 'electron' });
  };
}
