/**
 * What the shell needs to know about printing before it restarts the app for an update: whether
 * every printer's queue is idle, and a signal each time a queue goes idle. The print queue
 * provides it; the update coordinator depends only on this shape, so an update can never cut a
 * print run in half.
 */
export interface PrintActivity {
  /** True when no printer has a label queued, being sent or awaiting confirmation. */
  isQueueIdle(): boolean;
  /** Called each time the last busy queue becomes idle; returns the unsubscribe function. */
  onQueueIdle(listener: () => void): () => void;
}

/** For a station without a print queue (nothing can be printing, so it is always idle). */
export const noPrintActivity: PrintActivity = {
  isQueueIdle: () => true,
  onQueueIdle: () => () => undefined,
};
