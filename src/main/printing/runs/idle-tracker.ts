/**
 * Tells whoever waits for the printing to go quiet (the updater installs only then) when every
 * queue and run is done. Listeners that throw are logged, never allowed to stop the others.
 */
import type { Logger } from '../../logging/logger';
import type { PrintActivity } from '../../updates/print-activity';
import { errorText } from '../../../shared/error-text';

export class IdleTracker {
  private readonly listeners = new Set<() => void>();
  readonly activity: PrintActivity;

  constructor(
    private readonly isIdle: () => boolean,
    private readonly logger: Logger,
  ) {
    this.activity = {
      isQueueIdle: () => this.isIdle(),
      onQueueIdle: (listener) => {
        this.listeners.add(listener);
        return () => this.listeners.delete(listener);
      },
    };
  }

  /** Something finished: tell the listeners if nothing is left. */
  notifyIfIdle(): void {
    if (!this.isIdle()) return;
    for (const listener of [...this.listeners]) {
      try {
        listener();
      } catch (error) {
        this.logger.warn('print idle listener failed', { error: errorText(error) });
      }
    }
  }
}
