/**
 * Cost of the sandbox's label documents: run with `npx tsx bench/sandbox-labels.ts`.
 * Prints time per document for ZPL, PDF (single, bundle, merge) and the ZPL-to-PNG preview.
 */
import { mergePdfLabels, renderPdfLabel, renderPdfLabels } from '../src/sandbox/labels/pdf';
import { renderZplToPng } from '../src/sandbox/labels/render';
import { renderZplLabel } from '../src/sandbox/labels/zpl';
import type { LabelData } from '../src/sandbox/labels/label-data';

const label = (index: number): LabelData => ({
  orderId: `ord_7f3a9c${String(index).padStart(4, '0')}`,
  orderRef: `SHOP-2024-${String(index).padStart(6, '0')}`,
  barcode: `JVGL06${String(index).padStart(8, '0')}`,
  deliveryName: 'Zoë van der Berg',
  deliveryAddress: 'Keizersgracht 123 A, 1015 CJ Amsterdam',
  postalCode: '1015 CJ',
  city: 'Amsterdam',
  countryCode: 'NL',
  senderName: 'Bakkerij De Gouden Korenaar B.V.',
  bundle: { index: (index % 10) + 1, count: 10, bundleId: 'BNDL-20240611-0042' },
  createdAt: '2024-06-11T08:15:00Z',
  trackingUrl: 'https://track.example.com/t/JVGL0612345678',
});

async function measure(name: string, runs: number, unit: 'us' | 'ms', work: (i: number) => unknown): Promise<void> {
  for (let i = 0; i < Math.min(runs, 50); i += 1) await work(i);
  const start = process.hrtime.bigint();
  for (let i = 0; i < runs; i += 1) await work(i);
  const perRun = Number(process.hrtime.bigint() - start) / runs / (unit === 'us' ? 1e3 : 1e6);
  console.log(`${name.padEnd(44)} ${perRun.toFixed(unit === 'us' ? 1 : 2).padStart(8)} ${unit}`);
}

const ten = Array.from({ length: 10 }, (_, i) => label(i));
await measure('ZPL label, portrait', 20_000, 'us', (i) => renderZplLabel(label(i), 'portrait'));
await measure('ZPL label, landscape', 20_000, 'us', (i) => renderZplLabel(label(i), 'landscape'));
await measure('PDF label, A6 landscape (default)', 500, 'ms', (i) => renderPdfLabel(label(i)));
await measure('PDF label, A4 portrait', 500, 'ms', (i) => renderPdfLabel(label(i), { orientation: 'portrait', printSize: 'A4' }));
await measure('PDF bundle of 10, one document', 100, 'ms', () => renderPdfLabels(ten));
const singles = await Promise.all(ten.map((data) => renderPdfLabel(data)));
await measure('PDF merge of 10 single-label PDFs', 100, 'ms', () => mergePdfLabels(singles));
await measure('ZPL to PNG (zpl-renderer-js)', 10, 'ms', (i) => renderZplToPng(renderZplLabel(label(i), 'portrait')));
