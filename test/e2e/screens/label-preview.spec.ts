import { renderPdfLabel } from '../../../src/sandbox/labels/pdf';
import { renderZplLabel } from '../../../src/sandbox/labels/zpl';
import { expect, test } from '../web-host-fixture';
import { openStation, screenshotDir, watchCsp } from './station-page';

const order = {
  orderId: 'SBX-000123',
  orderRef: 'ORD-2024/0001.5',
  barcode: '3SABC1234567',
  deliveryName: 'Sam de Vries',
  deliveryAddress: 'Keizersgracht 123, 1015 CJ Amsterdam',
  postalCode: '1015 CJ',
  city: 'Amsterdam',
  countryCode: 'NL',
  senderName: 'Packing Station Sandbox',
  createdAt: '2025-11-21T08:00:00.000Z',
};

const naturalWidth = (image: { naturalWidth: number }) => image.naturalWidth;

test('a ZPL label renders offline in the worker, loaded only when needed, under the strict CSP', async ({ page, webHost }) => {
  const csp = watchCsp(page);
  const scripts: string[] = [];
  page.on('request', (request) => scripts.push(new URL(request.url()).pathname));
  await openStation(page, webHost);
  await page.keyboard.press('F3');
  expect(scripts.filter((path) => /zpl/i.test(path))).toEqual([]);

  await page.getByTestId('label-file').setInputFiles({ name: 'label.zpl', mimeType: 'text/plain', buffer: Buffer.from(renderZplLabel(order, 'portrait')) });
  const image = page.getByTestId('preview-image');
  await expect(image).toHaveCount(1, { timeout: 30_000 });
  await expect(page.getByTestId('label-preview')).toHaveAttribute('data-format', 'zpl');
  // A6 at 8 dots/mm: 840 × 1184 pixels.
  expect(await image.evaluate(naturalWidth)).toBe(840);
  expect(scripts.some((path) => /zpl\.worker/.test(path))).toBe(true);
  expect(csp).toEqual([]);
  await page.screenshot({ path: `${screenshotDir}/printers-zpl-preview-1280x800.png` });
});

test('a PDF label renders with pdf.js in its worker under the strict CSP', async ({ page, webHost }) => {
  const csp = watchCsp(page);
  await openStation(page, webHost);
  await page.keyboard.press('F3');
  const pdf = await renderPdfLabel(order, { orientation: 'portrait' });
  await page.getByTestId('label-file').setInputFiles({ name: 'label.pdf', mimeType: 'application/pdf', buffer: Buffer.from(pdf) });
  const image = page.getByTestId('preview-image');
  await expect(image).toHaveCount(1, { timeout: 30_000 });
  await expect(page.getByTestId('label-preview')).toHaveAttribute('data-format', 'pdf');
  expect(await image.evaluate(naturalWidth)).toBeGreaterThan(500);
  await expect(page.getByText('Page 1 of 1')).toBeVisible();
  expect(csp).toEqual([]);
  await page.screenshot({ path: `${screenshotDir}/printers-pdf-preview-1280x800.png` });
});

test('a file that is no label says so', async ({ page, webHost }) => {
  await openStation(page, webHost);
  await page.keyboard.press('F3');
  await page.getByTestId('label-file').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('shopping list') });
  await expect(page.getByTestId('preview-error')).toContainText('neither a ZPL nor a PDF label');
});
