import { readFileSync } from 'node:fs';
import { addVirtualZebra, expect, test } from './bench-fixture';
import { openStation, scanLikeAScanner, screenshotDir } from './station-page';

test('a shift-start run of 20 bundles survives a paper-out and its summary matches the printer', async ({ page, webHost, zebra, sandboxOrders }) => {
  test.setTimeout(180_000);
  const allBundles = [...new Set(sandboxOrders.map((order) => order.bundleId))];
  const bundleIds = allBundles.slice(0, 20);
  expect(bundleIds).toHaveLength(20);
  await openStation(page, webHost);
  await addVirtualZebra(page, zebra);

  // The lead first scans one slip of another bundle at the scan screen, as a trainee would.
  const warmUp = sandboxOrders.find((order) => order.status === 'draft' && !bundleIds.includes(order.bundleId));
  if (!warmUp) throw new Error('the sandbox has no draft order outside the first 20 bundles');
  await page.keyboard.press('F1');
  await scanLikeAScanner(page, warmUp.orderRef);
  await expect(page.getByTestId('result-order')).toHaveText(warmUp.orderRef, { timeout: 20_000 });
  await zebra.waitForLabels(1);

  // Two bundle slips scanned with the focus anywhere on the screen, the other 18 pasted.
  await page.keyboard.press('F2');
  await expect(page.getByTestId('bundles-none')).toBeVisible();
  await scanLikeAScanner(page, bundleIds[0] ?? '');
  await scanLikeAScanner(page, bundleIds[1] ?? '');
  await expect(page.getByTestId('bundles-count')).toHaveText('2 bundles chosen:');
  await page.getByTestId('bundle-input').fill(bundleIds.slice(2).join('\n'));
  await page.getByTestId('bundle-input').press('Enter');
  await expect(page.getByTestId('bundles-count')).toHaveText('20 bundles chosen:');
  await page.screenshot({ path: `${screenshotDir}/shift-chosen-1280x800.png` });

  // The printer runs out of labels a few labels in: the run pauses by itself and says why.
  await zebra.runOutOfPaperAfter(13);
  await page.getByTestId('run-start').click();
  const panel = page.getByTestId('run-panel');
  await expect(panel).toHaveAttribute('data-state', 'paused', { timeout: 60_000 });
  await expect(page.getByTestId('run-pause-reason')).toContainText('Printer out of labels');
  await expect(page.getByTestId('run-pause-reason')).toContainText('Load a roll, then press Resume');
  await expect(page.getByTestId('printer-status')).toContainText('Paper out');
  await page.evaluate("document.getElementById('main').scrollTo(0, 0)");
  await page.screenshot({ path: `${screenshotDir}/shift-paused-paper-out-1280x800.png` });

  // A roll is loaded: the run carries on from the first label not printed, to the end.
  await zebra.setPaperOut(false);
  if ((await panel.getAttribute('data-state')) === 'paused') await page.getByTestId('run-resume').click().catch(() => undefined);
  await expect(panel).toHaveAttribute('data-state', 'finished', { timeout: 120_000 });
  await page.evaluate("document.getElementById('main').scrollTo(0, 0)");
  await page.screenshot({ path: `${screenshotDir}/shift-summary-1280x800.png` });

  // The summary matches the printer's own record: every label printed once, none twice.
  const printed = Number(await page.getByTestId('summary-printed').textContent());
  const labels = zebra.printed().slice(1);
  expect(printed).toBeGreaterThan(20);
  expect(labels).toHaveLength(printed);
  expect(new Set(labels.map((label) => label.zpl)).size).toBe(printed);
  await expect(page.getByTestId('summary-failed')).toHaveText('0');
  await expect(page.getByTestId('summary-uncertain')).toHaveText('0');
  await expect(page.getByTestId('run-labels')).toHaveText(`${printed} of ${printed} labels`);
  await expect(page.getByTestId('run-bundles')).toHaveText('20 of 20 bundles done');

  const downloading = page.waitForEvent('download');
  await page.getByTestId('run-export').click();
  const csv = readFileSync(await (await downloading).path(), 'utf8');
  expect(csv.trim().split('\r\n')).toHaveLength(printed + 1);
  const runOrders = sandboxOrders.filter((order) => bundleIds.includes(order.bundleId) && order.status === 'draft');
  for (const order of runOrders.slice(0, 5)) expect(csv).toContain(order.orderRef);
});
