/**
 * The last resort of a long-running process (the desktop app, the web host, `webhooks serve`,
 * the sandbox): an error no caller caught (a timer's callback that threw, a promise nobody
 * awaited) is reported with its stack and counted, and the process keeps serving rather than
 * dying mid-shift. Each host says how it reports (the station's logger, the sandbox's terminal)
 * and installs this once, at its start; the count is what a health check shows.
 */

/** The process's two events for errors nobody caught (Node's `process` is one). */
export interface StrayErrorSource {
  on(event: 'uncaughtException' | 'unhandledRejection', listener: (error: unknown) => void): unknown;
}

export type StrayErrorKind = 'uncaught exception' | 'unhandled rejection';

export interface StrayError {
  kind: StrayErrorKind;
  error: unknown;
  stack: string | undefined;
  /** How many stray errors the process had, this one included. */
  count: number;
}

export interface StrayErrors {
  /** Stray errors since the process started. */
  count(): number;
}

export function keepServingAfterStrayErrors(source: StrayErrorSource, report: (stray: StrayError) => void): StrayErrors {
  let count = 0;
  const heard = (kind: StrayErrorKind) => (error: unknown) => {
    count += 1;
    const stack = error instanceof Error ? error.stack : undefined;
    // A report that throws here would end the process after all: it is the one thing not allowed to.
    try {
      report({ kind, error, stack, count });
    } catch {
      // Nothing is left to tell; the count still says it happened.
    }
  };
  source.on('uncaughtException', heard('uncaught exception'));
  source.on('unhandledRejection', heard('unhandled rejection'));
  return { count: () => count };
}
