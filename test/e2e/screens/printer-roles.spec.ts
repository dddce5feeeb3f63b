/**
 * A lead adds printers to a bench that prints, at 1024×768: taking a role from the working printer
 * is a choice the form names (from whom), a network Zebra where nothing listens is saved as not
 * answering and prints nothing, and removing a printer hands what it printed to the printer left,
 * so the bench never prints to a printer that is gone while the top bar says Ready.
 */
import { createServer } from 'node:net';
import type { Page } from '@playwright/test';
import { draftOrder, expect, test, virtualPrinterName } from './bench-fixture';
import { openStation, scanLikeAScanner } from './station-page';

test.use({ viewport: { width: 1024, height: 768 } });

/** A loopback port nothing listens on: bound and closed again. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

const card = (page: Page, name: string) => page.locator('[data-testid^="printer-card-"]', { has: page.getByRole('heading', { name, exact: true }) });
const singleBox = (page: Page, name: string) => card(page, name).locator('[data-testid^="printer-single-"]');
const bundlesBox = (page: Page, name: string) => card(page, name).locator('[data-testid^="printer-bundles-"]');

async function fillNetworkZebra(page: Page, name: string, port: number): Promise<void> {
  await page.getByTestId('printer-kind-network-zebra').check();
  await page.getByTestId('printer-name').fill(name);
  await page.getByTestId('printer-host').fill('127.0.0.1');
  await page.getByTestId('printer-port').fill(String(port));
}

test('adding a printer takes no role unless chosen, a Zebra that does not answer prints nothing, and a removed printer’s roles go back', async ({ page, webHost, zebra, sandboxOrders }) => {
  test.setTimeout(120_000);
  await openStation(page, webHost);
  await page.keyboard.press('F3');
  await expect(singleBox(page, virtualPrinterName)).toBeChecked();

  // The form asks, and says from whom a role would be taken; nothing is ticked for the lead.
  const takeSingle = page.getByTestId('printer-role-single');
  const takeBundles = page.getByTestId('printer-role-bundles');
  await expect(takeSingle).not.toBeChecked();
  await expect(takeBundles).not.toBeChecked();
  await expect(page.getByTestId('add-printer')).toContainText(`Print single scans here instead of on ${virtualPrinterName}`);
  await expect(page.getByTestId('add-printer')).toContainText(`Print shift-start runs here instead of on ${virtualPrinterName}`);

  // A Zebra at an address where nothing listens, even with both roles ticked: saved as not answering, printing nothing.
  const port = await deadPort();
  await fillNetworkZebra(page, 'Dock Zebra', port);
  await takeSingle.check();
  await takeBundles.check();
  await page.getByTestId('printer-add').click();
  const notAnswering = page.getByTestId('printer-added-not-answering');
  await expect(notAnswering).toHaveText(`Dock Zebra is saved, but nothing answers at 127.0.0.1:${port}. It prints nothing until it answers: switch it on, press “Check the printer” on its card, then tick what it should print.`, { timeout: 20_000 });
  await expect(notAnswering).toBeInViewport();
  await expect(page.getByTestId('printer-added')).not.toContainText('print queue');
  await expect(singleBox(page, 'Dock Zebra')).not.toBeChecked();
  await expect(bundlesBox(page, 'Dock Zebra')).not.toBeChecked();
  await expect(singleBox(page, virtualPrinterName)).toBeChecked();
  await expect(bundlesBox(page, virtualPrinterName)).toBeChecked();

  // The bench still prints where it did.
  await page.keyboard.press('F1');
  await scanLikeAScanner(page, draftOrder(sandboxOrders, 0).orderRef);
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'printed', { timeout: 20_000 });
  await expect(page.getByTestId('result-printer')).toHaveText(virtualPrinterName);

  // The bench's own Zebra, chosen for single scans only: the role moves, the runs stay.
  await page.keyboard.press('F3');
  await fillNetworkZebra(page, 'Bench Zebra', Number(zebra.boundPort));
  await page.getByTestId('printer-role-single').check();
  await page.getByTestId('printer-add').click();
  await expect(page.getByTestId('printer-added')).toContainText('Bench Zebra is added. It prints single scans.', { timeout: 20_000 });
  await expect(singleBox(page, 'Bench Zebra')).toBeChecked();
  await expect(singleBox(page, virtualPrinterName)).not.toBeChecked();
  await expect(card(page, virtualPrinterName)).toContainText('Print single scans here instead of on Bench Zebra');
  await expect(bundlesBox(page, virtualPrinterName)).toBeChecked();

  // Removing it says where its work goes, and it goes there.
  await card(page, 'Bench Zebra').locator('[data-testid^="printer-remove-"]').click();
  await expect(page.getByTestId('printer-remove-heir')).toHaveText(`What it prints (single scans) goes to ${virtualPrinterName}.`);
  await page.getByTestId('confirm-yes').click();
  await expect(card(page, 'Bench Zebra')).toHaveCount(0);
  await expect(singleBox(page, virtualPrinterName)).toBeChecked();
  await page.keyboard.press('F1');
  await scanLikeAScanner(page, draftOrder(sandboxOrders, 1).orderRef);
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'printed', { timeout: 20_000 });
  await expect(page.getByTestId('result-printer')).toHaveText(virtualPrinterName);

  // With no printer left for scans, the top bar says so instead of showing the printers Ready.
  await page.keyboard.press('F3');
  // The box follows the station's answer, so it is clicked and then read, not unchecked in one step.
  await singleBox(page, virtualPrinterName).click();
  await expect(singleBox(page, virtualPrinterName)).not.toBeChecked();
  await expect(page.getByTestId('printer-none-for-scans')).toContainText('No printer for scans');
  await expect(page.getByTestId('printer-none-for-scans')).toBeInViewport();
});
