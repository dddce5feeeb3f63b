import type { NoticeCode } from '../../shared/contract/app';
import type { ErrorFacts } from '../../shared/errors';
import type { Logger } from '../logging/logger';
import type { PrintActivity } from './print-activity';
import type { UpdateSettings } from './update-settings';
import { errorText } from '../../shared/error-text';

/** What the coordinator needs of electron-updater's autoUpdater (the shell adapts it). */
export interface UpdaterPort {
  /** Looks for a newer version on the feed and downloads it in the background. */
  checkForUpdates(): Promise<void>;
  /** Quits the app, installs the downloaded version and starts it again. */
  quitAndInstall(): void;
  onUpdateDownloaded(listener: (version: string) => void): () => void;
  onError(listener: (message: string) => void): () => void;
}

export type UpdateState = 'off' | 'idle' | 'waiting-for-idle-queue' | 'installing';

export interface UpdateCoordinator {
  readonly state: UpdateState;
  /** The downloaded version waiting to be installed, if any. */
  readonly pendingVersion: string | null;
  start(): void;
  checkNow(): Promise<'off' | 'checked' | 'failed'>;
  stop(): void;
}

export interface UpdateCoordinatorOptions {
  settings: UpdateSettings;
  /** Builds the updater; called only when a feed is configured, so an unconfigured station never loads it. */
  createUpdater(feedUrl: string, channel: string): UpdaterPort;
  activity: PrintActivity;
  logger: Logger;
  /** A notice for the screen: English for the log, and the code and facts the screen words it by. */
  notify(level: 'info' | 'warning', message: string, notice?: { code: NoticeCode; facts: ErrorFacts }): void;
  firstCheckDelayMs?: number;
}

const HOUR = 60 * 60 * 1000;

/**
 * Checks the configured feed now and then, lets electron-updater download in the background, and
 * installs only once every print queue has been idle for the configured quiet period: a
 * downloaded update never cuts a print run in half, and each label finishing restarts the wait.
 */
export function createUpdateCoordinator(options: UpdateCoordinatorOptions): UpdateCoordinator {
  const { settings, activity, logger } = options;
  const feedUrl = settings.feedUrl;
  const quietMs = settings.installAfterIdleMinutes * 60 * 1000;
  let state: UpdateState = feedUrl ? 'idle' : 'off';
  let pendingVersion: string | null = null;
  let updater: UpdaterPort | null = null;
  const cleanups: (() => void)[] = [];
  let quietTimer: ReturnType<typeof setTimeout> | null = null;
  let unsubscribeIdle: (() => void) | null = null;

  const clearQuietTimer = () => {
    if (quietTimer) clearTimeout(quietTimer);
    quietTimer = null;
  };

  const install = () => {
    if (state !== 'waiting-for-idle-queue' || !updater) return;
    if (!activity.isQueueIdle()) return; // the next idle event starts the quiet period again
    state = 'installing';
    unsubscribeIdle?.();
    unsubscribeIdle = null;
    logger.info('installing update', { version: pendingVersion });
    options.notify('info', `Installing version ${pendingVersion}: the station restarts in a moment.`, { code: 'update-installing', facts: { version: pendingVersion } });
    updater.quitAndInstall();
  };

  const startQuietPeriod = () => {
    clearQuietTimer();
    quietTimer = setTimeout(install, quietMs);
  };

  const onDownloaded = (version: string) => {
    pendingVersion = version;
    if (state === 'waiting-for-idle-queue' || state === 'installing') return;
    state = 'waiting-for-idle-queue';
    logger.info('update downloaded; waiting for idle print queues', { version });
    options.notify('info', `Version ${version} is ready. It will be installed when no labels are printing.`, { code: 'update-ready', facts: { version } });
    unsubscribeIdle = activity.onQueueIdle(startQuietPeriod);
    if (activity.isQueueIdle()) startQuietPeriod();
  };

  const ensureUpdater = (): UpdaterPort | null => {
    if (!feedUrl) return null;
    if (!updater) {
      updater = options.createUpdater(feedUrl, settings.channel);
      cleanups.push(updater.onUpdateDownloaded(onDownloaded));
      cleanups.push(updater.onError((message) => logger.warn('update check failed', { error: message })));
    }
    return updater;
  };

  const checkNow = async (): Promise<'off' | 'checked' | 'failed'> => {
    const current = ensureUpdater();
    if (!current) return 'off';
    if (state !== 'idle') return 'checked';
    try {
      await current.checkForUpdates();
      return 'checked';
    } catch (error) {
      logger.warn('update check failed', { error: errorText(error) });
      return 'failed';
    }
  };

  return {
    get state() {
      return state;
    },
    get pendingVersion() {
      return pendingVersion;
    },
    start() {
      if (!feedUrl) {
        logger.info('updates are off: no update feed is configured');
        return;
      }
      ensureUpdater();
      logger.info('updates on', { feed: feedUrl, channel: settings.channel });
      const first = setTimeout(() => void checkNow(), options.firstCheckDelayMs ?? 60_000);
      const every = setInterval(() => void checkNow(), settings.checkEveryHours * HOUR);
      cleanups.push(() => clearTimeout(first), () => clearInterval(every));
    },
    checkNow,
    stop() {
      clearQuietTimer();
      unsubscribeIdle?.();
      unsubscribeIdle = null;
      for (const cleanup of cleanups.splice(0)) cleanup();
    },
  };
}
