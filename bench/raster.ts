/**
 * PDF → ^GFA rasterisation speed: A6 label pages per second on this machine.
 * Run: npx tsx bench/raster.ts [pages]
 */
import { a6At203Dpi, rasterizePdf, rasterPageToZpl } from '../src/main/printing/raster/pdf-raster';
import { renderPdfLabels } from '../src/sandbox/labels/pdf';

const pageCount = Number(process.argv[2] ?? 100);
const labels = Array.from({ length: pageCount }, (_, n) => ({
  orderId: `ord_${n}`,
  orderRef: `REF-${n}`,
  barcode: `3SPSB${String(n).padStart(8, '0')}`,
  deliveryName: 'Anna de Vries',
  deliveryAddress: 'Keizersgracht 12 A, 1015 CS Amsterdam',
  postalCode: '1015CS',
  city: 'Amsterdam',
  countryCode: 'NL',
  senderName: 'Packing Station Sandbox',
  bundle: { index: (n % 5) + 1, count: 5, bundleId: `B-${Math.floor(n / 5)}` },
  createdAt: '2026-11-21T08:00:00.000Z',
}));
const pdf = await renderPdfLabels(labels, { orientation: 'landscape', printSize: 'A6' });

// The first pass loads pdf.js and warms the JIT; it is not counted.
for await (const page of rasterizePdf(pdf, a6At203Dpi)) rasterPageToZpl(page);

for (const encoding of ['compressed', 'hex'] as const) {
  const started = performance.now();
  let bytes = 0;
  let pages = 0;
  for await (const page of rasterizePdf(pdf, a6At203Dpi)) {
    bytes += rasterPageToZpl(page, a6At203Dpi, encoding).length;
    pages++;
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `${encoding.padEnd(10)} ${pages} A6 pages in ${seconds.toFixed(2)} s = ${(pages / seconds).toFixed(1)} pages/s, ` +
      `${Math.round(bytes / pages / 1024)} KiB of ZPL per label`,
  );
}
