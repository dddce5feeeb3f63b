import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import type { VirtualZebra } from '../../../src/sandbox/printer/virtual-zebra';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox';
import { controlCall, stationOrders, type TodaysOrder } from '../../integration/printing-queue/support';
import { statusEvent } from '../../integration/webhooks/payloads';
import { removeDataDir, startStationHost, type StationHost } from '../station-host';
import { addVirtualZebra, expect, test } from './bench-fixture';
import { openStation, scanLikeAScanner, screenshotDir } from './station-page';

/**
 * The supervisor's side of the bench, as a lead uses it: the delivery service's test environment
 * is played by a sandbox of this test (so the test can move orders on and watch its webhooks),
 * the station keeps the key in a real keychain, labels come out of the test's virtual Zebra.
 */

/** A contract call made from the page itself, over its own signed-in socket (as the screen makes them). */
async function callFromPage<T>(page: Page, name: string, input: unknown): Promise<T> {
  type Result = { ok: boolean; value?: unknown; error?: { message: string } };
  const origin = new URL(page.url()).origin;
  const result = await page.evaluate(
    ({ name, input, origin }) =>
      new Promise<Result>((resolve, reject) => {
        const socket = new WebSocket(`${origin.replace(/^http/, 'ws')}/station`);
        socket.onerror = () => reject(new Error('socket refused'));
        socket.onopen = () => socket.send(JSON.stringify({ type: 'call', id: 1, name, input }));
        socket.onmessage = (message) => {
          const frame = JSON.parse(String(message.data)) as { type: string; id?: number; result: Result };
          if (frame.type === 'result' && frame.id === 1) {
            socket.close();
            resolve(frame.result);
          }
        };
      }),
    { name, input, origin },
  );
  if (!result.ok) throw new Error(`${name}: ${result.error?.message ?? 'failed'}`);
  return result.value as T;
}

interface Bench {
  service: RunningSandbox;
  station: StationHost;
  orders: TodaysOrder[];
  receiverUrl: string;
  close(): Promise<void>;
}

async function benchOnTestService(page: Page, zebra: VirtualZebra): Promise<Bench> {
  const service = await startSandbox({ printers: 0, orders: 300, rateLimit: { requestsPerSecond: 0 } });
  const company = service.environments.test.companies[0]!;
  const station = await startStationHost({ keyring: true });
  await openStation(page, station);
  await page.keyboard.press('F4');
  await page.getByTestId('environment-test').click();
  // Not set up yet (no address, no key): the screen asks, and the lead switches anyway to set it up.
  await page.getByTestId('confirm-yes').click();
  await expect(page.getByTestId('environment')).toHaveText('TEST');
  await page.getByTestId('setting-base-url-test').fill(service.environments.test.baseUrl);
  await page.getByTestId('setting-base-url-test').press('Enter');
  await expect(page.getByTestId('setting-base-url-test')).toHaveValue(service.environments.test.baseUrl);
  await page.getByTestId('key-input-test').fill(company.apiKey);
  await page.getByTestId('key-test').getByLabel('Check it with the delivery service before saving').uncheck();
  await page.getByTestId('key-save-test').click();
  await expect(page.getByTestId('key-status-test')).toContainText('A key is set');
  await page.getByTestId('setting-operator').fill('Anna');
  await page.getByTestId('setting-operator').press('Enter');
  await addVirtualZebra(page, zebra, 'Bench Zebra', { first: true });
  // The receiver on a free port of this machine, registered with the service for every status.
  await callFromPage(page, 'settings.set', { webhooks: { host: '127.0.0.1', port: 0 } });
  const receiver = await callFromPage<{ port: number; paths: { environment: string; path: string }[] }>(page, 'webhooks.start', {});
  const receiverUrl = `http://127.0.0.1:${receiver.port}${receiver.paths.find((entry) => entry.environment === 'test')?.path}`;
  await controlCall(service, '/environments/test/webhooks', { method: 'POST', body: { company: company.name, url: receiverUrl } });
  const orders = (await stationOrders(service)).filter((order) => order.zplAvailable && order.status === 'draft');
  return {
    service,
    station,
    orders,
    receiverUrl,
    async close() {
      await station.stop();
      removeDataDir(station.dataDir);
      await service.close();
    },
  };
}

/** Scans an order at the bench and waits for its label and the service's news of it. */
async function printAtBench(page: Page, bench: Bench, zebra: VirtualZebra, order: TodaysOrder): Promise<void> {
  const before = zebra.printed().length;
  await page.keyboard.press('F1');
  await scanLikeAScanner(page, order.orderId);
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'printed', { timeout: 20_000 });
  await zebra.waitForLabels(before + 1);
  await controlCall(bench.service, '/webhooks/wait-idle', { method: 'POST', body: { timeoutMs: 10_000 } });
}

const historyRow = (page: Page, text: string) => page.getByTestId('history-table').locator('tbody tr.history-row', { hasText: text }).first();
/** Chooses a History row and presses one of its actions (they open under the chosen row). */
async function rowAction(page: Page, text: string, name: string): Promise<void> {
  await historyRow(page, text).click();
  await page.getByTestId('history-actions').getByRole('button', { name }).click();
}

test('a lead voids a printed order from History, sees the service refuse one beyond in_transit, and closes the day with a PDF the driver can scan', async ({ page, zebra }) => {
  test.setTimeout(120_000);
  const bench = await benchOnTestService(page, zebra);
  const scratch = mkdtempSync(join(tmpdir(), 'handover-e2e-'));
  try {
    const [voided, tooLate, kept] = bench.orders as [TodaysOrder, TodaysOrder, TodaysOrder];
    for (const order of [voided, tooLate, kept]) await printAtBench(page, bench, zebra, order);
    for (const status of ['in_transit', 'out_for_delivery']) {
      await controlCall(bench.service, `/environments/test/orders/${tooLate.orderId}/status`, { method: 'POST', body: { status } });
    }
    await controlCall(bench.service, '/webhooks/wait-idle', { method: 'POST', body: { timeoutMs: 10_000 } });

    await page.keyboard.press('F5');
    await expect(historyRow(page, voided.orderRef)).toBeVisible();
    // One line per label: 20 and more fit between the navigation and the footer of a 1280x800 screen.
    const rowHeight = (await historyRow(page, kept.orderRef).boundingBox())?.height ?? 999;
    const navBottom = await page.locator('nav').first().evaluate((element) => element.getBoundingClientRect().bottom);
    const footerTop = await page.locator('footer').first().evaluate((element) => element.getBoundingClientRect().top);
    const headHeight = (await page.getByTestId('history-table').locator('thead').boundingBox())?.height ?? 999;
    expect(Math.floor((footerTop - navBottom - headHeight) / rowHeight)).toBeGreaterThanOrEqual(20);
    await rowAction(page, voided.orderRef, 'Cancel order');
    await expect(page.getByTestId('void-submit')).toBeDisabled();
    await page.getByTestId('void-reason').fill('customer called');
    await expect(page.getByTestId('void-operator')).toHaveValue('Anna');
    await page.getByTestId('void-submit').click();
    await expect(page.getByTestId(`history-voided-${voided.orderId}`)).toHaveText(`${voided.orderRef} is cancelled — keep it off the pallet.`, { timeout: 20_000 });
    await expect(historyRow(page, voided.orderRef)).toContainText('Voided');
    expect(((await controlCall(bench.service, `/environments/test/orders/${voided.orderId}`)) as { status: string }).status).toBe('cancelled');
    await page.screenshot({ path: `${screenshotDir}/supervision-voided-1280x800.png` });

    // Beyond in_transit: the service's own words and the last status the station heard.
    await rowAction(page, tooLate.orderRef, 'Cancel order');
    await page.getByTestId('void-reason').fill('wrong address');
    await page.getByTestId('void-submit').click();
    const refusal = page.getByTestId('history-void-error');
    await expect(refusal).toContainText('The delivery service did not cancel it (last known status Out for delivery)', { timeout: 20_000 });
    await expect(refusal).toContainText(`order ${tooLate.orderId} can no longer be cancelled: its status is out_for_delivery`);
    // Under the row the lead is looking at, not at the top of the page.
    await expect(refusal).toBeInViewport({ ratio: 1 });
    await expect(historyRow(page, tooLate.orderRef)).not.toContainText('Voided');
    await page.screenshot({ path: `${screenshotDir}/supervision-refused-1280x800.png` });

    // A later scan of the voided parcel is refused in words.
    await page.keyboard.press('F1');
    await scanLikeAScanner(page, voided.barcode);
    await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'failed', { timeout: 20_000 });
    await expect(page.getByTestId('result-error-title')).toHaveText(/^Cancelled at \d\d:\d\d by Anna — keep it off the pallet$/);

    // Close the day: every printed, non-voided parcel's barcode on the PDF, read back with zbar.
    await page.keyboard.press('F5');
    await page.getByTestId('day-close').click();
    await expect(page.getByTestId('day-close-summary')).toContainText('2 parcels', { timeout: 20_000 });
    const pdfPath = (await page.getByTestId('day-close-path').textContent()) ?? '';
    execFileSync('pdftoppm', ['-r', '150', '-png', pdfPath, join(scratch, 'page')]);
    const decoded = readdirSync(scratch)
      .filter((name) => name.startsWith('page') && name.endsWith('.png'))
      .flatMap((name) => execFileSync('zbarimg', ['--quiet', '--raw', join(scratch, name)], { encoding: 'utf8' }).split('\n'))
      .filter((line) => line.trim() !== '');
    expect(decoded.sort()).toEqual([tooLate.barcode, kept.barcode].sort());

    // And on the bench's Zebra as a long label, its barcodes read from the printed label.
    const labelsBefore = zebra.printed().length;
    await page.getByTestId('day-close-printer').selectOption({ label: 'Bench Zebra' });
    await page.getByTestId('day-close-print').click();
    await expect(page.getByTestId('day-close-printed')).toHaveText('Printed on Bench Zebra.', { timeout: 20_000 });
    await zebra.waitForLabels(labelsBefore + 1);
    const labelPng = join(scratch, 'label.png');
    writeFileSync(labelPng, await zebra.renderPng(labelsBefore));
    const onLabel = execFileSync('zbarimg', ['--quiet', '--raw', labelPng], { encoding: 'utf8' }).split('\n').filter((line) => line.trim() !== '');
    expect(onLabel.sort()).toEqual([tooLate.barcode, kept.barcode].sort());
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    await bench.close();
  }
});

test('a cancellation by webhook after printing raises a notice that survives a reload until a lead acknowledges it; the timeline reads in order', async ({ page, zebra }) => {
  test.setTimeout(120_000);
  const bench = await benchOnTestService(page, zebra);
  try {
    const [pulled, travelling] = bench.orders as [TodaysOrder, TodaysOrder];
    await printAtBench(page, bench, zebra, pulled);
    await printAtBench(page, bench, zebra, travelling);

    await controlCall(bench.service, `/environments/test/orders/${pulled.orderId}/status`, { method: 'POST', body: { status: 'cancelled' } });
    const notice = page.getByTestId(`pull-notice-${pulled.orderId}`);
    await expect(notice).toContainText(pulled.orderRef, { timeout: 20_000 });
    await expect(notice).toContainText('Cancelled by the delivery service');
    await expect(notice).toContainText('Take it off the pallet');
    await page.screenshot({ path: `${screenshotDir}/supervision-pull-notice-1280x800.png` });

    await page.reload();
    await expect(page.getByTestId(`pull-notice-${pulled.orderId}`)).toContainText(pulled.orderRef);
    await page.keyboard.press('F5');
    await page.getByTestId('history-pull-filter').check();
    await expect(page.getByTestId('history-table').locator('tbody tr.history-row')).toHaveCount(1);
    await expect(historyRow(page, pulled.orderRef)).toBeVisible();
    await page.getByTestId('history-pull-filter').uncheck();

    await page.getByTestId(`pull-notice-${pulled.orderId}`).getByRole('button', { name: 'Pulled — acknowledge' }).click();
    await expect(page.getByTestId(`pull-notice-${pulled.orderId}`)).toHaveCount(0);
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-scan-ready', 'true');
    await expect(page.getByTestId('app-info')).toBeVisible();
    await expect(page.getByTestId(`pull-notice-${pulled.orderId}`)).toHaveCount(0);

    // Webhooks out of order and twice over: the timeline reads as it happened.
    const base = Date.now() + 10_000;
    const at = (seconds: number) => new Date(base + seconds * 1000).toISOString();
    const track = 'https://track.example.test/p/2';
    const event = (status: Parameters<typeof statusEvent>[1], previous: Parameters<typeof statusEvent>[2], seconds: number, attempt: number) =>
      statusEvent(travelling.orderId, status, previous, {
        orderRef: travelling.orderRef,
        barcode: travelling.barcode,
        orderBundle: { id: 1, bundleId: travelling.bundleId },
        updatedAt: at(seconds),
        attempt,
        trackingUrl: track,
      });
    const inTransit = event('in_transit', 'expected', 1, 1);
    const out = event('out_for_delivery', 'in_transit', 2, 1);
    const waiting = event('awaiting_next_attempt', 'out_for_delivery', 3, 1);
    const outAgain = event('out_for_delivery', 'awaiting_next_attempt', 4, 2);
    for (const payload of [out, outAgain, inTransit, out, waiting, inTransit]) {
      const response = await fetch(bench.receiverUrl, { method: 'POST', headers: { 'content-type': 'application/json; charset=UTF-8' }, body: JSON.stringify(payload) });
      expect(response.status).toBe(200);
    }
    await page.keyboard.press('F5');
    await rowAction(page, travelling.orderRef, 'Where is it?');
    const steps = page.getByTestId('whereabouts-step-status');
    await expect(steps).toHaveText(['Label printed, expected', 'In transit', 'Out for delivery', 'Awaiting next attempt', 'Out for delivery'], { timeout: 20_000 });
    await expect(page.getByTestId('whereabouts-printed')).toContainText('Printed here');
    await expect(page.getByTestId('whereabouts-tracking')).toHaveAttribute('href', track);
    await expect(page.getByTestId('whereabouts-qr')).toBeVisible();
    await page.screenshot({ path: `${screenshotDir}/supervision-timeline-1280x800.png` });

    // At the scan screen: the lead's STATION:VOID card, then the parcel; it is not printed but cancelled.
    const third = bench.orders[2] as TodaysOrder;
    await printAtBench(page, bench, zebra, third);
    const labelsBefore = zebra.printed().length;
    await scanLikeAScanner(page, 'STATION:VOID');
    await expect(page.getByTestId('void-armed')).toHaveText('Scan the parcel to cancel');
    await scanLikeAScanner(page, third.barcode);
    await page.getByTestId('void-reason').fill('damaged beyond repair');
    await page.getByTestId('void-submit').click();
    await expect(page.getByTestId('scan-void-result')).toHaveText(`${third.orderRef} is cancelled — keep it off the pallet.`, { timeout: 20_000 });
    expect(zebra.printed()).toHaveLength(labelsBefore);
    await scanLikeAScanner(page, third.orderRef);
    await expect(page.getByTestId('result-error-title')).toHaveText(/^Cancelled at \d\d:\d\d by Anna — keep it off the pallet$/, { timeout: 20_000 });
    // The scan result shows where that parcel is: printed here, cancelled by whom and why.
    await page.getByTestId('scan-where').click();
    await expect(page.getByTestId('whereabouts-printed')).toContainText('Printed here');
    await expect(page.getByTestId('whereabouts-voided')).toContainText('by Anna (damaged beyond repair)');
  } finally {
    await bench.close();
  }
});
