import type { WebContents } from 'electron';
import type { Logger } from '../logging/logger';
import { isAppUrl } from './app-protocol';
import { isAllowedExternalUrl } from './external-links';

/** The parts of Electron's WebContents this module touches. */
export type HardenableWebContents = Pick<WebContents, 'on' | 'setWindowOpenHandler'>;

export interface ExternalLinkPolicy {
  /** Hosts a link may open in the system browser (see isAllowedExternalUrl). */
  allowedHosts: readonly string[];
  /** shell.openExternal in the app; a recorder in tests. */
  openExternal(url: string): void;
}

/**
 * Every webContents the app creates gets these rules: it never navigates away from the app (a
 * link to an allowed https host opens in the system browser instead), never opens a window, never
 * attaches a <webview>, and never picks a Bluetooth device.
 */
export function hardenWebContents(contents: HardenableWebContents, links: ExternalLinkPolicy, logger: Logger): void {
  const leaveApp = (url: string, how: string) => {
    if (isAllowedExternalUrl(url, links.allowedHosts)) {
      logger.info('link opened in the system browser', { url });
      links.openExternal(url);
    } else {
      logger.warn(`${how} refused`, { url });
    }
  };

  contents.on('will-navigate', (event, url) => {
    // The app is one page: even a navigation to another app URL would drop the screen's state.
    event.preventDefault();
    if (!isAppUrl(url)) leaveApp(url, 'navigation');
  });
  contents.on('will-frame-navigate', (event) => {
    if (!isAppUrl(event.url)) {
      event.preventDefault();
      logger.warn('frame navigation refused', { url: event.url });
    }
  });
  contents.on('will-redirect', (event, url) => {
    if (!isAppUrl(url)) {
      event.preventDefault();
      logger.warn('redirect refused', { url });
    }
  });
  contents.setWindowOpenHandler(({ url }) => {
    leaveApp(url, 'new window');
    return { action: 'deny' };
  });
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
    logger.warn('webview refused');
  });
  contents.on('select-bluetooth-device', (event, _devices, callback) => {
    event.preventDefault();
    callback('');
  });
}
