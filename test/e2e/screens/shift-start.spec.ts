import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { addVirtualZebra, expect, test } from './bench-fixture';
import { removeDataDir, startStationHost } from '../station-host';
import { openStation, scanLikeAScanner, screenshotDir } from './station-page';

/** The bundle ids the Shift start screen lists, top to bottom. */
async function listedBundles(page: Page): Promise<string[]> {
  const ids = await page.getByTestId('bundle-choices').locator('.bundle-id').allTextContents();
  return ids.map((id) => id.trim());
}

test('a shift-start run of 20 of today’s bundles survives a paper-out and its summary matches the printer', async ({ page, webHost, zebra, sandboxOrders }) => {
  test.setTimeout(180_000);
  await openStation(page, webHost);
  await addVirtualZebra(page, zebra);

  // Today's bundles, each with its parcel count, straight from the order index.
  await page.keyboard.press('F2');
  await expect(page.getByTestId('bundles-none')).toBeVisible();
  await expect(page.getByTestId('bundle-choices').locator('li').first()).toBeVisible({ timeout: 20_000 });
  const listed = await listedBundles(page);
  const todaysBundles = new Set(sandboxOrders.map((order) => order.bundleId));
  expect(listed.length).toBeGreaterThanOrEqual(20);
  for (const bundleId of listed) expect(todaysBundles.has(bundleId), bundleId).toBe(true);
  const firstBundle = listed[0]!;
  const parcels = sandboxOrders.filter((order) => order.bundleId === firstBundle).length;
  await expect(page.getByTestId(`bundle-${firstBundle}`)).toContainText(parcels === 1 ? '1 parcel' : `${parcels} parcels`);

  // A bundle slip scanned with the focus anywhere ticks its bundle; "Choose all", then two left out.
  await page.getByTestId('nav-printers').focus();
  await scanLikeAScanner(page, listed[1]!);
  await expect(page.getByTestId(`bundle-${listed[1]}`).locator('input')).toBeChecked();
  await expect(page.getByTestId('bundles-count')).toContainText('1 bundle chosen');
  await page.getByTestId('bundles-select-all').click();
  for (const bundleId of listed.slice(20)) await page.getByTestId(`bundle-${bundleId}`).click();
  const bundleIds = listed.slice(0, 20);
  await expect(page.getByTestId('bundles-count')).toContainText('20 bundles chosen');
  await page.getByTestId('run-printer').selectOption({ label: 'Bench Zebra (for runs)' });
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

  // The page is reloaded meanwhile (a new shift at the same bench): the station offers the run.
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-scan-ready', 'true');
  const offer = page.getByTestId('unfinished-offer');
  await expect(offer).toContainText('A shift-start run is not finished');
  await expect(offer).toContainText('on Bench Zebra');
  await expect(page.getByTestId('printer-status')).toContainText('Paper out');
  await page.screenshot({ path: `${screenshotDir}/scan-unfinished-offer-1280x800.png` });
  await offer.getByTestId('unfinished-show').click();
  await expect(page.getByTestId('nav-shift')).toHaveAttribute('aria-current', 'page');
  await expect(panel).toHaveAttribute('data-state', 'paused');

  // Resume pressed before the roll is in: the station asks the printer at once, which still says it
  // is out of labels, so the run stays paused for that reason.
  await expect(panel).toHaveAttribute('data-state', 'paused');
  await page.getByTestId('run-resume').click();
  await expect(page.getByTestId('run-resume')).toBeEnabled();
  await expect(panel).toHaveAttribute('data-state', 'paused');
  await expect(page.getByTestId('run-pause-reason')).toContainText('Printer out of labels');

  // A roll is loaded: the run carries on by itself from the first label not printed, to the end.
  await zebra.setPaperOut(false);
  await expect(panel).toHaveAttribute('data-state', 'finished', { timeout: 120_000 });
  await page.evaluate("document.getElementById('main').scrollTo(0, 0)");
  await page.screenshot({ path: `${screenshotDir}/shift-summary-1280x800.png` });

  // The summary matches the printer's own record: as many labels as the summary says, none twice,
  // and the orders left out (cancelled ones) counted apart.
  const printed = Number(await page.getByTestId('summary-printed').textContent());
  const skipped = Number(await page.getByTestId('summary-skipped').textContent());
  const labels = zebra.printed();
  const runOrders = sandboxOrders.filter((order) => bundleIds.includes(order.bundleId));
  expect(printed + skipped).toBe(runOrders.length);
  expect(labels).toHaveLength(printed);
  expect(new Set(labels.map((label) => label.zpl)).size).toBe(printed);
  await expect(page.getByTestId('summary-failed')).toHaveText('0');
  await expect(page.getByTestId('summary-uncertain')).toHaveText('0');
  await expect(page.getByTestId('run-labels')).toHaveText(`${printed} of ${printed} labels`);
  await expect(page.getByTestId('run-bundles')).toHaveText('20 of 20 bundles done');

  // The run's export says which order each label was for: every ZPL label is on the printer with
  // its order's barcode (labels the service only has as PDF went as images).
  const downloading = page.waitForEvent('download');
  await page.getByTestId('run-export').click();
  const exported = parse(readFileSync(await (await downloading).path(), 'utf8'), { columns: true }) as Record<string, string>[];
  // The parcels the run left out follow its labels, each with its reason.
  const rows = exported.filter((row) => row.state !== 'left-out');
  const leftOut = exported.filter((row) => row.state === 'left-out');
  expect(rows).toHaveLength(printed);
  await expect(page.getByTestId('summary-skipped')).toHaveText(String(leftOut.length));
  for (const row of leftOut) expect(row.reason).toMatch(/^[A-Z_]+: /);
  for (const row of rows) {
    expect(row.state).toBe('printed');
    expect(runOrders.some((order) => order.orderRef === row.orderRef && order.barcode === row.barcode)).toBe(true);
    if (row.format === 'zpl') expect(labels.filter((label) => label.zpl.includes(row.barcode!)), row.orderRef).toHaveLength(1);
  }

  // Back to choosing: the bundles just printed are no longer listed.
  await page.getByTestId('run-close').click();
  await expect(page.getByTestId('bundle-choices')).toBeVisible();
  expect(await listedBundles(page)).toEqual(listed.slice(20));
});

test('a run interrupted by closing the station is offered at the next start and carries on from the first label not printed', async ({ page, zebra }) => {
  test.setTimeout(120_000);
  zebra.setLabelsPerSecond(2);
  let station = await startStationHost();
  const dataDir = station.dataDir;
  try {
    await openStation(page, station);
    await addVirtualZebra(page, zebra);
    await page.keyboard.press('F2');
    await expect(page.getByTestId('bundle-choices').locator('li').first()).toBeVisible({ timeout: 20_000 });
    const listed = await listedBundles(page);
    for (const bundleId of listed.slice(0, 3)) await page.getByTestId(`bundle-${bundleId}`).click();
    await page.getByTestId('run-start').click();
    await expect(page.getByTestId('run-panel')).toHaveAttribute('data-state', 'running', { timeout: 20_000 });
    const total = Number((await page.getByTestId('run-labels').textContent())?.match(/of (\d+) labels/)?.[1]);
    expect(total).toBeGreaterThan(5);
    await zebra.waitForLabels(2, 20_000);

    // The station is closed mid-run and started again on the same data.
    await station.stop();
    const printedBeforeClose = zebra.printed().length;
    expect(printedBeforeClose).toBeLessThan(total);
    station = await startStationHost({ dataDir });
    await openStation(page, station);
    const offer = page.getByTestId('unfinished-offer');
    await expect(offer).toContainText('A shift-start run is not finished', { timeout: 20_000 });
    await expect(offer).toContainText('on Bench Zebra');
    await expect(page.getByTestId('printer-status')).toContainText('Bench Zebra');
    await page.screenshot({ path: `${screenshotDir}/scan-interrupted-run-offer-1280x800.png` });
    zebra.setLabelsPerSecond(20);
    await offer.getByTestId('unfinished-resume').click();
    await expect(page.getByTestId('nav-shift')).toHaveAttribute('aria-current', 'page');
    await expect(page.getByTestId('run-panel')).toHaveAttribute('data-state', 'finished', { timeout: 60_000 });
    await expect(page.getByTestId('run-labels')).toHaveText(`${total} of ${total} labels`);

    // Every label came out once: the ones in the printer at the close were not sent again.
    const labels = zebra.printed();
    expect(labels).toHaveLength(total);
    expect(new Set(labels.map((label) => label.zpl)).size).toBe(total);
  } finally {
    await station.stop();
    removeDataDir(dataDir);
  }
});
