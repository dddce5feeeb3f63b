/**
 * A lead closes the day in the browser kiosk at 1024×768: the handover list downloads (the web
 * host serves it to this signed-in page only), every page of the PDF says which list it is and
 * which page, counts read "1 parcel", no bundle heading stands alone at a page's foot; printing it
 * on the bench's Zebra says what is being sent while it goes.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addVirtualZebra, draftOrder, expect, printBiggestBundles, test } from './bench-fixture';
import { openStation, scanLikeAScanner } from './station-page';

test.use({ viewport: { width: 1024, height: 768 } });

/** The PDF's pages as text, laid out as on paper. */
function pagesOf(pdfPath: string): string[] {
  return execFileSync('pdftotext', ['-layout', pdfPath, '-'], { encoding: 'utf8' })
    .split('\f')
    .filter((text) => text.trim() !== '');
}

/** The handover progress as the page saw it when it appeared. */
interface ProgressSeen {
  text: string;
  inView: boolean;
}

/** Run in the page: notes the progress's words, and whether it is whole in view, when it appears. */
const noteProgressWhenItAppears = `(() => {
  const seen = [];
  globalThis.handoverProgress = seen;
  new MutationObserver(() => {
    const progress = document.querySelector('[data-testid="day-close-printing"]');
    if (!progress || seen.length > 0) return;
    const box = progress.getBoundingClientRect();
    seen.push({ text: progress.textContent ?? '', inView: box.top >= 0 && box.left >= 0 && box.bottom <= innerHeight && box.right <= innerWidth });
  }).observe(document.body, { subtree: true, childList: true, characterData: true });
})()`;

test('closing the day in the browser downloads a handover list whose every page is headed and numbered, and printing it shows progress', async ({ page, webHost, zebra, sandboxOrders }) => {
  test.setTimeout(180_000);
  const scratch = mkdtempSync(join(tmpdir(), 'handover-download-'));
  try {
    await openStation(page, webHost);
    await scanLikeAScanner(page, 'STATION:OPERATOR:Anna');
    await expect(page.getByTestId('operator-badge-name')).toHaveText('Anna');
    // The bench's Zebra prints the day's labels at 20 a second (the sandbox's prints one a
    // second: half a minute of waiting for three big bundles) and the handover list at the end.
    await addVirtualZebra(page, zebra);
    await page.keyboard.press('F1');
    // One order alone in its bundle, then three big bundles: two pages or more.
    const single = draftOrder(sandboxOrders, 0);
    await scanLikeAScanner(page, single.orderRef);
    await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'printed', { timeout: 20_000 });
    await printBiggestBundles(page, sandboxOrders, 3);
    await page.getByTestId('run-close').click();

    await page.keyboard.press('F5');
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), page.getByTestId('day-close').click()]);
    expect(download.suggestedFilename()).toMatch(/^handover-sandbox-\d{4}-\d{2}-\d{2}\.pdf$/);
    const pdfPath = join(scratch, download.suggestedFilename());
    await download.saveAs(pdfPath);
    await expect(page.getByTestId('day-close-download')).toBeVisible();

    const pages = pagesOf(pdfPath);
    expect(pages.length).toBeGreaterThanOrEqual(2);
    const whole = pages.join('\n');
    expect(whole).not.toMatch(/\b1 parcels\b/);
    expect(whole).toContain(`Bundle ${single.bundleId}: 1 parcel,`);
    for (const [index, text] of pages.entries()) {
      const lines = text.split('\n').map((line) => line.trim()).filter((line) => line !== '');
      expect(lines.at(-1), `page ${index + 1}`).toBe(`Page ${index + 1} of ${pages.length}`);
      expect(lines[0], `page ${index + 1}`).toMatch(/^Handover list - /);
      // The last line before the page number is a parcel, never a bundle's heading left alone.
      expect(lines.at(-2), `page ${index + 1}`).not.toMatch(/^Bundle |^Without bundle/);
    }

    // The list printed on the bench's Zebra: what is being sent is on screen while it goes. The
    // printer takes the list as fast as the network brings it, so that may be a few milliseconds:
    // the page itself notes what the progress said, and where, the moment it appears.
    await page.keyboard.press('F5');
    await page.getByTestId('day-close-printer').selectOption({ label: 'Bench Zebra' });
    await page.evaluate(noteProgressWhenItAppears);
    await page.getByTestId('day-close-print').click();
    await expect(page.getByTestId('day-close-printed')).toHaveText('Printed on Bench Zebra.', { timeout: 60_000 });
    await expect(page.getByTestId('day-close-printing')).toHaveCount(0);
    const seen = await page.evaluate(() => (globalThis as unknown as { handoverProgress: ProgressSeen[] }).handoverProgress);
    expect(seen).toEqual([{ text: expect.stringMatching(/Sending the handover list to Bench Zebra: \d+ long labels? for \d+ parcels…/), inView: true }]);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});

test('the handover download is refused to a browser without the station’s session', async ({ page, webHost }) => {
  await openStation(page, webHost);
  await page.keyboard.press('F5');
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), page.getByTestId('day-close').click()]);
  const path = new URL(download.url()).pathname;
  // Signed in: served. Without the session cookie (another browser): refused, nothing of the file.
  expect((await page.request.get(`${webHost.url}${path}`)).status()).toBe(200);
  const stranger = await fetch(`${webHost.url}${path}`);
  expect(stranger.status).toBe(401);
  expect(await stranger.text()).not.toContain('%PDF');
  // Only the handover folder's own names: nothing else of the data folder.
  expect((await page.request.get(`${webHost.url}/handover/..%2Fstation.db`)).status()).toBe(404);
});
