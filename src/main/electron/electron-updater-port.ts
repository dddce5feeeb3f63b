import electronUpdater from 'electron-updater';
import type { Logger } from '../logging/logger';
import type { UpdaterPort } from '../updates/update-coordinator';
import { errorText } from '../../shared/error-text';

/**
 * electron-updater's autoUpdater on the "generic" provider, pointed at the configured feed. It
 * downloads in the background and checks the download's sha512 against the feed's latest*.yml
 * (and, on Windows, the installer's publisher signature) before anything is installed.
 */
export function createElectronUpdaterPort(feedUrl: string, channel: string, logger: Logger): UpdaterPort {
  const { autoUpdater } = electronUpdater;
  const detail = (message: unknown) => ({ detail: errorText(message) });
  autoUpdater.logger = {
    info: (message?: unknown) => logger.info('updater', detail(message)),
    warn: (message?: unknown) => logger.warn('updater', detail(message)),
    error: (message?: unknown) => logger.error('updater', detail(message)),
    debug: (message: string) => logger.debug('updater', detail(message)),
  };
  autoUpdater.autoDownload = true;
  autoUpdater.autoInstallOnAppQuit = true;
  autoUpdater.allowDowngrade = false;
  autoUpdater.allowPrerelease = false;
  autoUpdater.setFeedURL({ provider: 'generic', url: feedUrl, channel });

  return {
    async checkForUpdates() {
      await autoUpdater.checkForUpdates();
    },
    quitAndInstall() {
      // Silent installer, and the station starts again by itself afterwards.
      autoUpdater.quitAndInstall(true, true);
    },
    onUpdateDownloaded(listener) {
      const handler = (info: { version: string }) => listener(info.version);
      autoUpdater.on('update-downloaded', handler);
      return () => void autoUpdater.off('update-downloaded', handler);
    },
    onError(listener) {
      const handler = (error: Error) => listener(error.message);
      autoUpdater.on('error', handler);
      return () => void autoUpdater.off('error', handler);
    },
  };
}
