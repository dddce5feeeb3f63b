/**
 * Waits for a condition on something outside the test's control (a virtual printer, a child
 * process), checking every few milliseconds; fails naming what it waited for.
 */
export async function waitUntil(condition: () => boolean, what: string, timeoutMs = 20_000, everyMs = 20): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
