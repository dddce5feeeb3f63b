/**
 * Waits for a condition on something outside the test's control (a virtual printer, a child
 * process, a server's answer), checking every few milliseconds; fails naming what it waited for.
 * The condition may be asynchronous (a query, a request); it is asked again only once it answered.
 */
export async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 20_000,
  everyMs = 20,
): Promise<void> {
  await waitForValue(async () => ((await condition()) ? true : null), what, timeoutMs, everyMs);
}

/**
 * Like waitUntil, for a question whose answer the test goes on to use: asks until it is neither
 * null nor undefined and returns it.
 */
export async function waitForValue<T>(
  probe: () => T | null | undefined | Promise<T | null | undefined>,
  what: string,
  timeoutMs = 20_000,
  everyMs = 20,
): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value !== null && value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
