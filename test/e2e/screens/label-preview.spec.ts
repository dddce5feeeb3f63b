import { readFileSync } from 'node:fs';
import { join } from 'node:path';
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
  // The renderer's WebAssembly comes as a file of its own, typed so that it compiles as it downloads.
  const wasm: { path: string; type: string | undefined }[] = [];
  page.on('response', (response) => {
    const path = new URL(response.url()).pathname;
    if (path.endsWith('.wasm')) wasm.push({ path, type: response.headers()['content-type'] });
  });
  await openStation(page, webHost);
  await page.keyboard.press('F3');
  expect(scripts.filter((path) => /zpl/i.test(path))).toEqual([]);

  await page.getByTestId('label-file').setInputFiles({ name: 'label.zpl', mimeType: 'text/plain', buffer: Buffer.from(renderZplLabel(order, 'portrait')) });
  const image = page.getByTestId('preview-image');
  await expect(image).toHaveCount(1, { timeout: 30_000 });
  await expect(page.getByTestId('label-preview')).toHaveAttribute('data-format', 'zpl');
  // The size the label itself gives: ^PW839 ^LL1184 (A6 at 203 dpi).
  expect(await image.evaluate(naturalWidth)).toBe(839);
  expect(await image.evaluate((element: { naturalHeight: number }) => element.naturalHeight)).toBe(1184);
  expect(scripts.some((path) => /zpl\.worker/.test(path))).toBe(true);
  expect(wasm).toEqual([{ path: expect.stringMatching(/^\/assets\/zpl-renderer-[\w-]+\.wasm$/), type: 'application/wasm' }]);
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

const carrierLabel = (name: string) => readFileSync(join(process.cwd(), 'test/fixtures/zpl', name));
const naturalHeight = (image: { naturalHeight: number }) => image.naturalHeight;

test('a 4×6 carrier label is shown at its own size, not A6', async ({ page, webHost }) => {
  await openStation(page, webHost);
  await page.keyboard.press('F3');
  await page.getByTestId('label-file').setInputFiles({ name: 'fedex.zpl', mimeType: 'text/plain', buffer: carrierLabel('fedex-4x6-fh.zpl') });
  const image = page.getByTestId('preview-image');
  await expect(image).toHaveCount(1, { timeout: 30_000 });
  // ^PW812 ^LL1218: 4 × 6 inches at 203 dpi.
  expect(await image.evaluate(naturalWidth)).toBe(812);
  expect(await image.evaluate(naturalHeight)).toBe(1218);
  await expect(page.getByText('Label 1 of 1 · 101.5 × 152.3 mm')).toBeVisible();
  await page.getByTestId('label-preview').screenshot({ path: `${screenshotDir}/printers-zpl-preview-4x6.png` });
});

test('a 4×8 carrier label is shown at its own length', async ({ page, webHost }) => {
  await openStation(page, webHost);
  await page.keyboard.press('F3');
  await page.getByTestId('label-file').setInputFiles({ name: 'usps.zpl', mimeType: 'text/plain', buffer: carrierLabel('usps-4x8.zpl') });
  const image = page.getByTestId('preview-image');
  await expect(image).toHaveCount(1, { timeout: 30_000 });
  // ^PW812 ^LL1624: 4 × 8 inches at 203 dpi.
  expect(await image.evaluate(naturalWidth)).toBe(812);
  expect(await image.evaluate(naturalHeight)).toBe(1624);
  await expect(page.getByText('Label 1 of 1 · 101.5 × 203 mm')).toBeVisible();
});

test('every format of a multi-format label is shown, one image each', async ({ page, webHost }) => {
  await openStation(page, webHost);
  await page.keyboard.press('F3');
  await page.getByTestId('label-file').setInputFiles({ name: 'gls.zpl', mimeType: 'text/plain', buffer: carrierLabel('gls-three-parcels.zpl') });
  await expect(page.getByTestId('preview-image')).toHaveCount(3, { timeout: 30_000 });
  for (const n of [1, 2, 3]) await expect(page.getByText(`Label ${n} of 3 · 101.5 × 152.3 mm`)).toBeVisible();
  await page.getByTestId('label-preview').screenshot({ path: `${screenshotDir}/printers-zpl-preview-three-formats.png` });
});

test('a label that would change the printer is shown as refused, naming the command, not drawn', async ({ page, webHost }) => {
  await openStation(page, webHost);
  await page.keyboard.press('F3');
  await page.getByTestId('label-file').setInputFiles({ name: 'network.zpl', mimeType: 'text/plain', buffer: carrierLabel('refused/network-ns.zpl') });
  const error = page.getByTestId('preview-error');
  await expect(error).toHaveAttribute('data-problem', 'refused', { timeout: 30_000 });
  await expect(error).toContainText('This label would not be printed');
  const commands = page.getByTestId('preview-refused-commands');
  await expect(commands).toContainText('^NSP,192.168.10.77');
  await expect(commands).toContainText("changes the printer's wired network settings");
  await expect(page.getByTestId('preview-image')).toHaveCount(0);
  await error.screenshot({ path: `${screenshotDir}/printers-zpl-preview-refused.png` });
});
