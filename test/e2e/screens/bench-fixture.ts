import { VirtualZebra, type VirtualZebraOptions } from '../../../src/sandbox/printer/virtual-zebra';
import { createEmbeddedSandbox, type SandboxOrder } from '../../../src/main/embedded-sandbox';
import { expect, test as base } from '../web-host-fixture';
import type { Page } from '@playwright/test';
import { freeLoopbackPort } from '../../support/postgres-server';

/** The printer a fresh station prints to in the sandbox: the embedded sandbox's own virtual Zebra. */
export const virtualPrinterName = 'Virtual Zebra (sandbox)';

/**
 * A packing bench for the screen tests: the station's web host (the shared fixture), a virtual
 * Zebra on a free port of this machine that the test controls (paper out, speed), and today's
 * sandbox orders.
 *
 * The station's embedded sandbox is seeded deterministically (a fixed seed and today's date), so a
 * second sandbox started here holds the same orders under the same refs: the test knows which
 * slips a trainee could scan without a call that lists them.
 */
export const test = base.extend<{ zebra: VirtualZebra; zebraOptions: VirtualZebraOptions }, { sandboxOrders: SandboxOrder[] }>({
  /** The test's Zebra as it leaves the factory, unless a test sets its roll, counters or speed (`test.use`). */
  zebraOptions: [{}, { option: true }],
  zebra: async ({ zebraOptions }, use) => {
    const zebra = new VirtualZebra({ name: 'Bench Zebra', labelsPerSecond: 20, ...zebraOptions });
    await zebra.start({ host: '127.0.0.1', port: 0 });
    await use(zebra);
    await zebra.stop();
  },
  sandboxOrders: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const twin = createEmbeddedSandbox();
      const orders = await twin.todaysOrders();
      await twin.close();
      await use(orders);
    },
    { scope: 'worker' },
  ],
});

export { expect };

/**
 * Adds the test's Zebra on the Printers screen, as a lead setting up the bench would, and makes it
 * the printer for single scans and runs: ticked on the form, taking them from the printer that had
 * them (`first`: the environment has no printer yet, so it takes both without being asked). Used
 * where the test must make the printer fail.
 */
export async function addVirtualZebra(page: Page, zebra: VirtualZebra, name = 'Bench Zebra', options: { first?: boolean; anyLanguage?: boolean } = {}): Promise<void> {
  await page.keyboard.press('F3');
  await page.getByTestId('printer-kind-network-zebra').check();
  await page.getByTestId('printer-name').fill(name);
  await page.getByTestId('printer-host').fill('127.0.0.1');
  await page.getByTestId('printer-port').fill(String(zebra.boundPort));
  await page.getByTestId('printer-orientation').selectOption('portrait');
  if (options.first) {
    await expect(page.getByTestId('printer-first')).toBeVisible();
  } else {
    await page.getByTestId('printer-role-single').check();
    await page.getByTestId('printer-role-bundles').check();
  }
  await page.getByTestId('printer-add').click();
  await expect(page.getByTestId('printer-added')).toContainText(options.anyLanguage ? name : `${name} is added`);
  await expect(page.getByTestId('printer-status')).toContainText(name);
}

/** addVirtualZebra with the screen in any language: the confirmation is read for the printer's name only. */
export function addZebraInAnyLanguage(page: Page, zebra: VirtualZebra, name = 'Bench Zebra'): Promise<void> {
  return addVirtualZebra(page, zebra, name, { anyLanguage: true });
}

/**
 * Prints today's `count` biggest bundles (most draft orders) in one run from Shift start. Chosen by
 * name: the screen lists bundles in the order the station learnt of them, which is no order of size.
 */
export async function printBiggestBundles(page: Page, orders: readonly SandboxOrder[], count: number): Promise<void> {
  const drafts = new Map<string, number>();
  for (const order of orders) if (order.status === 'draft') drafts.set(order.bundleId, (drafts.get(order.bundleId) ?? 0) + 1);
  const biggest = [...drafts].sort(([a, sizeA], [b, sizeB]) => sizeB - sizeA || a.localeCompare(b)).slice(0, count);
  await page.keyboard.press('F2');
  for (const [bundleId] of biggest) await page.getByTestId(`bundle-${bundleId}`).locator('input').check({ timeout: 20_000 });
  await page.getByTestId('run-start').click();
  await expect(page.getByTestId('run-panel')).toHaveAttribute('data-state', 'finished', { timeout: 90_000 });
}

/** The nth draft order of today, orders alone in their bundle first: one scan, one label. */
export function draftOrder(orders: readonly SandboxOrder[], nth = 0): SandboxOrder {
  const perBundle = new Map<string, number>();
  for (const order of orders) perBundle.set(order.bundleId, (perBundle.get(order.bundleId) ?? 0) + 1);
  const drafts = orders.filter((order) => order.status === 'draft');
  const ordered = [...drafts.filter((order) => perBundle.get(order.bundleId) === 1), ...drafts.filter((order) => perBundle.get(order.bundleId) !== 1)];
  const order = ordered[nth];
  if (!order) throw new Error(`the sandbox has fewer than ${nth + 1} draft orders today`);
  return order;
}

/**
 * Adds a network Zebra where nothing answers (a printer added before it is switched on), on the
 * Printers screen, and waits for the station to say so.
 */
export async function addPrinterNothingAnswers(page: Page, name: string): Promise<void> {
  await page.getByTestId('printer-kind-network-zebra').check();
  await page.getByTestId('printer-name').fill(name);
  await page.getByTestId('printer-host').fill('127.0.0.1');
  await page.getByTestId('printer-port').fill(String(await freeLoopbackPort()));
  await page.getByTestId('printer-add').click();
  await expect(page.getByTestId('printer-added-not-answering')).toBeVisible({ timeout: 20_000 });
}

/** In Setup › Store: saves a shared store at a loopback port where nothing listens (TLS off, accepted), as an admin would mistype one. */
export async function saveStoreNothingAnswers(page: Page): Promise<void> {
  await page.getByTestId('store-kind-postgres').check();
  await page.getByTestId('store-address').fill(`postgres://station@127.0.0.1:${await freeLoopbackPort()}/packing`);
  await page.getByTestId('store-tls').selectOption('disable');
  await page.getByTestId('store-accept-unverified').check();
  await page.getByTestId('store-password').fill('Geheim123');
  await page.getByTestId('store-save').click();
}
