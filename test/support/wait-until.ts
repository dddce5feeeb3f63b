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
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
