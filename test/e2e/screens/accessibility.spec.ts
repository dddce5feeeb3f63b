/**
 * Every screen and dialog checked with axe-core (WCAG 2.1 A and AA) as a person reaches them, in
 * English and Dutch at 1024×768: no serious or critical violation, and no text whose contrast
 * axe cannot decide (test/e2e/accessibility.ts). One test per part of the station, so they run
 * side by side: the scan screen (the sign-in prompt, a label printed and reprinted with nobody
 * signed in, the duplicate, the reason panel, where the parcel is, its preview, the virtual
 * printer's labels, a new shipment, an order shipped); Shift start (an upload's preview, a paused
 * run and the question whether to cancel it); Printers (a search, the remove question); Setup
 * (the guide, the LIVE and TEST questions); History (preview, reprint, whereabouts, void, the day
 * closed).
 */
import type { Page } from '@playwright/test';
import type { SandboxOrder } from '../../../src/main/embedded-sandbox';
import { accessibilityProblems } from '../accessibility';
import { expect, test } from './bench-fixture';
import { chooseLanguageBeforeStart } from './layout-support';
import { openStation, scanLikeAScanner } from './station-page';

test.use({ viewport: { width: 1024, height: 768 } });
test.describe.configure({ mode: 'parallel' });

const dialogOpen = (page: Page) => expect(page.locator('dialog[open]')).toBeVisible({ timeout: 20_000 });
const dialogClosed = async (page: Page) => {
  await page.keyboard.press('Escape');
  await expect(page.locator('dialog[open]')).toHaveCount(0);
};

/** Each state's problems, by name; the test ends with none. */
type Check = (state: string) => Promise<void>;

/** A sample order printed from the sandbox panel: its ref. */
async function printSample(page: Page): Promise<string> {
  const sample = page.getByTestId('sample-order').first();
  await expect(sample).toBeVisible({ timeout: 20_000 });
  const ref = ((await sample.textContent()) ?? '').trim();
  await sample.click();
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'printed', { timeout: 20_000 });
  return ref;
}

/** `count` of today's draft orders with a ZPL label (the sandbox's printer prints them) other than the one printed already. */
function otherDrafts(orders: readonly SandboxOrder[], printed: string, count: number): string[] {
  return orders
    .filter((order) => order.status === 'draft' && order.zplAvailable && order.orderRef !== printed)
    .slice(0, count)
    .map((order) => order.orderRef);
}

async function signIn(page: Page): Promise<void> {
  await page.getByTestId('operator-name').fill('Anna');
  await page.getByTestId('operator-sign-in').click();
  await expect(page.getByTestId('operator-prompt')).toHaveCount(0);
}

const parts: Record<string, (page: Page, check: Check, orders: readonly SandboxOrder[]) => Promise<void>> = {
  scan: async (page, check, orders) => {
    const result = page.getByTestId('scan-result');
    await expect(page.getByTestId('operator-prompt')).toBeVisible();
    await check('scan-sign-in');
    const ref = await printSample(page);
    await check('scan-printed');
    await page.keyboard.press('F6');
    await expect(result).toHaveAttribute('data-state', 'reason');
    await check('scan-reason');
    await page.keyboard.press('1');
    await dialogOpen(page);
    await check('dialog-operator');
    await dialogClosed(page);
    await signIn(page);
    await scanLikeAScanner(page, ref);
    await expect(result).toHaveAttribute('data-state', 'duplicate', { timeout: 20_000 });
    await check('scan-duplicate');
    await page.getByTestId('scan-where').click();
    await expect(page.getByTestId('whereabouts-printed')).toBeVisible({ timeout: 20_000 });
    await check('scan-whereabouts');
    await page.keyboard.press('Escape');
    // Enough labels for the virtual printer's tray to scroll.
    for (const draft of otherDrafts(orders, ref, 7)) {
      await scanLikeAScanner(page, draft);
      await expect(result.filter({ hasText: draft })).toHaveAttribute('data-state', 'printed', { timeout: 20_000 });
    }
    await page.keyboard.press('Shift+F6');
    await expect(page.getByTestId('preview-dialog').getByTestId('preview-image')).toHaveCount(1, { timeout: 30_000 });
    await check('dialog-preview');
    await dialogClosed(page);
    await expect(page.getByTestId('virtual-printer-count')).toContainText('8', { timeout: 30_000 });
    await page.getByTestId('virtual-printer-open').click();
    await dialogOpen(page);
    await expect(page.getByTestId('virtual-printer-labels').locator('li')).toHaveCount(8);
    await check('dialog-virtual-printer');
    await dialogClosed(page);
    await page.getByTestId('new-shipment-open').click();
    await expect(page.getByTestId('new-shipment')).toBeVisible();
    await check('dialog-new-shipment');
    await dialogClosed(page);
    const csv = ['orderRef,locationId,deliveryStreet,deliveryNumber,deliveryPostalCode,deliveryCity,deliveryCountry,deliveryName,weight', 'SHOP-A11Y,1101,Keizersgracht,100,1016 DK,Amsterdam,NL,Eva de Boer,1200'].join('\n');
    await page.getByTestId('ship-import-file').setInputFiles({ name: 'shop.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await expect(page.getByTestId('ship-import-report')).toContainText('shop.csv');
    await scanLikeAScanner(page, 'SHOP-A11Y');
    const ship = page.getByTestId('ship-panel');
    await expect(ship).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
    await page.keyboard.press('2');
    await expect(page.getByTestId('ship-parcels')).toHaveText('2');
    await check('ship-ready');
    await page.keyboard.press('Enter');
    await expect(ship).toHaveAttribute('data-state', 'shipped', { timeout: 30_000 });
    await check('ship-shipped');
  },
  shift: async (page, check, orders) => {
    await page.keyboard.press('F2');
    await expect(page.getByTestId('bundle-choices').locator('li').first()).toBeVisible({ timeout: 20_000 });
    await check('shift-start');
    await page.getByTestId('upload-locations').fill('1101');
    const sheet = 'orderRef;locationId;deliveryName;deliveryStreet;deliveryNumber;deliveryPostalCode;deliveryCity;deliveryCountry\nA11Y-1;1101;Eva;Damrak;1;1012 LH;Amsterdam;NLD\n';
    await page.getByTestId('upload-file').setInputFiles({ name: 'day.csv', mimeType: 'text/csv', buffer: Buffer.from(sheet) });
    await expect(page.getByTestId('upload-rows')).toBeVisible();
    await check('shift-upload-preview');
    const drafts = new Map<string, number>();
    for (const order of orders) if (order.status === 'draft') drafts.set(order.bundleId, (drafts.get(order.bundleId) ?? 0) + 1);
    const [biggest] = [...drafts].sort(([a, sizeA], [b, sizeB]) => sizeB - sizeA || a.localeCompare(b));
    await page.getByTestId(`bundle-${biggest![0]}`).locator('input').check();
    await page.getByTestId('run-start').click();
    await page.getByTestId('run-pause').click();
    await expect(page.getByTestId('run-panel')).toHaveAttribute('data-state', 'paused', { timeout: 20_000 });
    await check('shift-run-paused');
    await page.getByTestId('run-cancel').click();
    await dialogOpen(page);
    await check('dialog-run-cancel');
    await page.getByTestId('confirm-yes').click();
    await expect(page.getByTestId('run-panel')).toHaveAttribute('data-state', 'cancelled', { timeout: 20_000 });
    await check('shift-run-cancelled');
  },
  printers: async (page, check) => {
    await page.keyboard.press('F3');
    await expect(page.getByTestId('printer-list')).toBeVisible();
    await check('printers');
    await page.getByTestId('discover-search').click();
    await expect(page.getByTestId('discover-count')).toBeVisible({ timeout: 20_000 });
    await check('printers-found');
    await page.locator('[data-testid^="printer-remove-"]').first().click();
    await dialogOpen(page);
    await check('dialog-printer-remove');
    await dialogClosed(page);
  },
  setup: async (page, check) => {
    await page.keyboard.press('F4');
    await expect(page.getByTestId('keys-section')).toBeVisible({ timeout: 20_000 });
    await check('setup');
    await page.getByTestId('guide-open-setup').click();
    await expect(page.getByTestId('guide')).toBeVisible();
    await check('dialog-guide');
    await dialogClosed(page);
    await page.getByTestId('environment-live').click();
    await dialogOpen(page);
    await check('dialog-live');
    await dialogClosed(page);
    await page.getByTestId('environment-test').click();
    await dialogOpen(page);
    await check('dialog-test-not-set-up');
    await dialogClosed(page);
  },
  history: async (page, check) => {
    await signIn(page);
    const ref = await printSample(page);
    await page.keyboard.press('F5');
    const row = page.locator('.history-row').filter({ hasText: ref }).first();
    await expect(row).toBeVisible({ timeout: 20_000 });
    await check('history');
    await row.click();
    await page.locator('[data-testid^="history-preview-"]').click();
    await expect(page.getByTestId('preview-dialog').getByTestId('preview-image')).toHaveCount(1, { timeout: 30_000 });
    await check('dialog-history-preview');
    await dialogClosed(page);
    await page.locator('[data-testid^="history-reprint-"]').click();
    await dialogOpen(page);
    await check('dialog-reprint-reason');
    await dialogClosed(page);
    await page.locator('[data-testid^="history-where-"]').click();
    await expect(page.getByTestId('whereabouts-printed')).toBeVisible({ timeout: 20_000 });
    await check('history-whereabouts');
    await page.locator('[data-testid^="history-void-"]').click();
    await dialogOpen(page);
    await check('dialog-void');
    await dialogClosed(page);
    await page.getByTestId('day-close').click();
    await expect(page.getByTestId('day-close-summary')).toBeVisible({ timeout: 20_000 });
    await check('history-day-closed');
  },
};

for (const language of ['en', 'nl'] as const) {
  for (const [part, walk] of Object.entries(parts)) {
    test(`${part} in "${language}": every state and dialog has no serious or critical accessibility violation`, async ({ page, webHost, sandboxOrders }) => {
      test.setTimeout(240_000);
      await chooseLanguageBeforeStart(page, language);
      await openStation(page, webHost);
      const problems: Record<string, string[]> = {};
      await walk(page, async (state) => {
        const found = await accessibilityProblems(page);
        if (found.length > 0) problems[state] = found;
      }, sandboxOrders);
      expect(problems, `accessibility problems of ${part} in "${language}"`).toEqual({});
    });
  }
}
