import type { Session } from 'electron';
import type { Logger } from '../logging/logger';

/** The parts of Electron's Session this module touches (Electron's own Session satisfies it). */
export type HardenableSession = Pick<
  Session,
  | 'setPermissionRequestHandler'
  | 'setPermissionCheckHandler'
  | 'setDevicePermissionHandler'
  | 'setDisplayMediaRequestHandler'
  | 'setSpellCheckerEnabled'
  | 'on'
> & { webRequest: Pick<Session['webRequest'], 'onBeforeRequest'> };

/** Schemes the station's pages may load from: the app itself and in-memory data. */
const allowedRequestSchemes = new Set(['app:', 'data:', 'blob:', 'devtools:']);

export function isAllowedRequestUrl(url: string): boolean {
  try {
    return allowedRequestSchemes.has(new URL(url).protocol);
  } catch {
    return false;
  }
}

/**
 * Locks down the session the window runs in. The screen needs no browser permission (the
 * printers, the keychain and the network are reached by main, never by the page), so every
 * permission request and check is denied, device pickers get nothing, downloads are cancelled,
 * and any request that would leave the app (http, https, ws, file) is cancelled before it starts.
 */
export function hardenSession(session: HardenableSession, logger: Logger): void {
  session.setPermissionRequestHandler((contents, permission, callback) => {
    logger.warn('permission request denied', { permission, url: contents.getURL() });
    callback(false);
  });
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
  session.setDisplayMediaRequestHandler((_request, callback) => callback(null));
  session.setSpellCheckerEnabled(false);
  session.on('will-download', (event, item) => {
    logger.warn('download refused', { url: item.getURL() });
    event.preventDefault();
  });
  session.webRequest.onBeforeRequest((details, callback) => {
    const allowed = isAllowedRequestUrl(details.url);
    if (!allowed) logger.warn('request outside the app refused', { url: details.url, type: details.resourceType });
    callback({ cancel: !allowed });
  });
}
