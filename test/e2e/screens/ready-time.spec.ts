import { expect, test } from '../web-host-fixture';

/** Budget for a page load to "ready to scan" on a shared 2-core CI machine; a bench PC is faster. */
const budgetMs = 2500;

test('the scan screen is ready to scan soon after the page loads', async ({ page, webHost }) => {
  // The first visit trades the token for the session cookie; measure a plain load after it.
  await page.goto(webHost.launchUrl);
  await expect(page.locator('html')).toHaveAttribute('data-scan-ready', 'true');

  const started = Date.now();
  await page.goto(`${webHost.url}/`);
  await expect(page.locator('html')).toHaveAttribute('data-scan-ready', 'true');
  const wallMs = Date.now() - started;
  const markMs = Number(await page.evaluate("performance.getEntriesByName('station:ready-to-scan')[0]?.startTime ?? -1"));
  const domContentLoadedMs = Number(await page.evaluate("performance.getEntriesByType('navigation')[0]?.domContentLoadedEventEnd ?? -1"));
  test.info().annotations.push({ type: 'ready-to-scan', description: `${Math.round(markMs)} ms after navigation start (DOMContentLoaded ${Math.round(domContentLoadedMs)} ms; ${wallMs} ms wall clock)` });
  console.log(`ready to scan: ${Math.round(markMs)} ms after navigation start; DOMContentLoaded ${Math.round(domContentLoadedMs)} ms; ${wallMs} ms wall clock`);
  expect(markMs).toBeGreaterThan(0);
  expect(markMs).toBeLessThan(budgetMs);
});

test('the first load fetches neither the label renderers nor the other screens', async ({ page, webHost }) => {
  const loads: Promise<{ path: string; bytes: number }>[] = [];
  page.on('response', (response) => {
    const path = new URL(response.url()).pathname;
    if (/\.(m?js)$/.test(path)) loads.push(response.body().then((body) => ({ path, bytes: body.byteLength })));
  });
  await page.goto(webHost.launchUrl);
  await expect(page.locator('html')).toHaveAttribute('data-scan-ready', 'true');
  const scripts = await Promise.all(loads);
  // The bundler may split shared code into small chunks of its own; the heavy parts must not be among
  // them, and together the scripts stay near the scan screen's own size (about 570 KB unpacked, with
  // English only: another language is fetched when a bench first uses it; one language is 70 KB and
  // the PDF renderer alone 400 KB, so a renderer, a screen or another language pulled in by mistake
  // shows here).
  expect(scripts.map(({ path }) => path).filter((path) => /zpl|pdf|SetupScreen|HistoryScreen|PrintersScreen|ShiftStartScreen/i.test(path))).toEqual([]);
  const totalBytes = scripts.reduce((sum, { bytes }) => sum + bytes, 0);
  expect(totalBytes).toBeLessThanOrEqual(600_000);
  console.log(`scripts of the first load (${totalBytes} bytes): ${scripts.map(({ path, bytes }) => `${path} ${bytes}`).join(', ')}`);
});
