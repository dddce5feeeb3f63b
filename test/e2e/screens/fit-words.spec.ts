/**
 * Fit and words a lead meets in the first hour (issue 23, item 10): names in the top bar end in
 * an ellipsis, never mid-letter; "Niemand angemeldet" whole; the German orientation list beside
 * its checkboxes, not over them; where a printer is, in the reader's language; the void dialog's
 * fields full-sized; one term for the pickup point in the new-shipment form.
 */
import type { Locator, Page } from '@playwright/test';
import { draftOrder, expect, test } from './bench-fixture';
import { chooseLanguageBeforeStart } from './layout-support';
import { openStation, scanLikeAScanner, screenshotDir } from './station-page';

/** Whether the text of a one-line box is cut, and if so whether the cut is shown with an ellipsis a block box draws. */
async function cutWithEllipsis(element: Locator): Promise<{ cut: boolean; ellipsis: boolean }> {
  return element.evaluate((node) => {
    const box = node as unknown as { scrollWidth: number; clientWidth: number };
    // The page's own getComputedStyle, reached without the DOM's types.
    const style = (globalThis as unknown as { getComputedStyle(target: unknown): { textOverflow: string; display: string; overflowX: string } }).getComputedStyle(node);
    return { cut: box.scrollWidth > box.clientWidth + 1, ellipsis: style.textOverflow === 'ellipsis' && !/flex|grid/.test(style.display) && style.overflowX !== 'visible' };
  });
}

async function boxesApart(a: Locator, b: Locator): Promise<boolean> {
  const [first, second] = [(await a.boundingBox())!, (await b.boundingBox())!];
  return first.x + first.width <= second.x + 1 || second.x + second.width <= first.x + 1 || first.y + first.height <= second.y + 1 || second.y + second.height <= first.y + 1;
}

async function signIn(page: Page, name: string): Promise<void> {
  await page.getByTestId('operator-name').fill(name);
  await page.getByTestId('operator-sign-in').click();
  await expect(page.getByTestId('operator-badge-name')).toHaveText(name);
}

test('German at 1024×768 with two printers: names end in an ellipsis, "Niemand angemeldet" whole, the orientation list clear of the checkboxes, the address in German', async ({ page, webHost, zebra }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1024, height: 768 });
  await chooseLanguageBeforeStart(page, 'de');
  await openStation(page, webHost);
  // Nobody signed in yet: the badge says so, whole.
  await page.getByTestId('operator-later').click();
  const nobody = page.getByTestId('operator-badge-name');
  await expect(nobody).toHaveText('Niemand angemeldet');
  expect((await cutWithEllipsis(nobody)).cut).toBe(false);
  await page.screenshot({ path: `${screenshotDir}/fit-words-nobody-de-1024x768.png` });

  await page.keyboard.press('F3');
  await page.getByTestId('printer-kind-network-zebra').check();
  await page.getByTestId('printer-name').fill('Packtisch 3 links neben dem Rolltor');
  await page.getByTestId('printer-host').fill('127.0.0.1');
  await page.getByTestId('printer-port').fill(String(zebra.boundPort));
  await page.getByTestId('printer-orientation').selectOption('landscape');
  await page.getByTestId('printer-add').click();
  await expect(page.getByTestId('printer-status')).toContainText('Packtisch 3');
  await page.getByTestId('operator-badge').click();
  await signIn(page, 'Sophie-Charlotte Oberhausen-Schwarzenberg');

  // Both names in the top bar: cut only with an ellipsis, the whole name in the title.
  const operator = page.getByTestId('operator-badge-name');
  const operatorFit = await cutWithEllipsis(operator);
  if (operatorFit.cut) expect(operatorFit.ellipsis).toBe(true);
  // Room for more than a letter: "S…" tells the lead nothing.
  expect((await operator.boundingBox())!.width).toBeGreaterThan(80);
  const printerNames = page.getByTestId('printer-status').locator('.printer-chip-name');
  await expect(printerNames).toHaveCount(2);
  for (const name of await printerNames.all()) {
    const fit = await cutWithEllipsis(name);
    if (fit.cut) expect(fit.ellipsis, `${await name.textContent()} cut mid-letter`).toBe(true);
    await expect(name).toHaveAttribute('title', (await name.textContent())!);
  }
  await page.screenshot({ path: `${screenshotDir}/fit-words-topbar-de-1024x768.png` });

  // The orientation list and the role checkboxes beside it do not lie over each other.
  const cards = page.locator('[data-testid^="printer-orientation-"]');
  for (const select of await cards.all()) {
    const card = select.locator('xpath=ancestor::*[contains(@class,"form-grid")][1]');
    for (const checkbox of await card.locator('input[type=checkbox]').all()) expect(await boxesApart(select, checkbox)).toBe(true);
  }
  // Where each printer is, in German.
  const where = page.locator('[data-testid^="printer-where-"]');
  await expect(where.filter({ hasText: `der Drucker unter 127.0.0.1:${zebra.boundPort}` })).toHaveCount(1);
  await expect(page.locator('main')).not.toContainText('the printer at');
  await page.screenshot({ path: `${screenshotDir}/fit-words-printers-de-1024x768.png` });
});

test('the void dialog’s fields are full-sized text fields, and the new-shipment form says "Pickup point" only for the point', async ({ page, webHost, sandboxOrders }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await openStation(page, webHost);
  await scanLikeAScanner(page, 'STATION:VOID');
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'void-armed');
  await scanLikeAScanner(page, draftOrder(sandboxOrders, 1).orderRef);
  for (const field of [page.getByTestId('void-reason'), page.getByTestId('void-operator')]) {
    const box = (await field.boundingBox())!;
    expect(box.height).toBeGreaterThanOrEqual(48);
    expect(box.width).toBeGreaterThanOrEqual(300);
    await expect(field).toHaveCSS('border-top-width', '2px');
  }
  await page.screenshot({ path: `${screenshotDir}/fit-words-void-1024x768.png` });
  await page.keyboard.press('Escape');

  await page.getByTestId('new-shipment-open').click();
  const form = page.getByTestId('new-shipment');
  await expect(form).toBeVisible();
  await expect(form).toContainText('Pickup point');
  await expect(form).not.toContainText('Pickup location');
});

for (const language of ['nl', 'de']) {
  test(`History at 1024×768 in "${language}": each column heading on one line and the whole table in view, today's labels by their time`, async ({ page, webHost, sandboxOrders }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width: 1024, height: 768 });
    await chooseLanguageBeforeStart(page, language);
    await openStation(page, webHost);
    await signIn(page, 'Anna de Vries');
    await scanLikeAScanner(page, draftOrder(sandboxOrders, 0).orderRef);
    await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'printed', { timeout: 20_000 });

    await page.keyboard.press('F5');
    const table = page.getByTestId('history-table');
    await expect(page.locator('.history-row').first()).toBeVisible({ timeout: 20_000 });
    const headings = await table.locator('th').evaluateAll((cells) =>
      cells.map((cell) => {
        const box = cell as unknown as { textContent: string | null; getClientRects(): unknown; ownerDocument: { createRange(): { selectNodeContents(node: unknown): void; getClientRects(): { length: number } } } };
        const range = box.ownerDocument.createRange();
        range.selectNodeContents(cell);
        // A heading broken over lines (or letter by letter) has one text box per line.
        return { text: box.textContent ?? '', lines: range.getClientRects().length };
      }),
    );
    expect(headings).toHaveLength(7);
    for (const heading of headings) expect(heading, heading.text).toEqual({ text: heading.text, lines: 1 });
    const tableBox = (await table.boundingBox())!;
    expect(tableBox.x + tableBox.width).toBeLessThanOrEqual(1024);
    const wrap = await page.locator('.table-wrap').evaluate((node) => {
      const box = node as unknown as { scrollWidth: number; clientWidth: number };
      return { scrollWidth: box.scrollWidth, clientWidth: box.clientWidth };
    });
    expect(wrap.scrollWidth).toBeLessThanOrEqual(wrap.clientWidth);
    // Printed a moment ago: the first cell is the clock time, the date is in its title.
    await expect(page.locator('.history-row').first().locator('td').first()).toHaveText(/^\d{1,2}[:.]\d{2}$/);
    await page.screenshot({ path: `${screenshotDir}/history-fit-${language}-1024x768.png` });
  });
}
