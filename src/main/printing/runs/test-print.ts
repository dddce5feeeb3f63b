/**
 * The "test print" as a run of its own: through the printer's queue like any label (so it never
 * cuts into a bundle run's bytes), recorded in the journal. A Zebra gets the small ZPL test label;
 * a PDF printer gets an A6 PDF page with the same words. The scanner check barcode (Setup ›
 * Scanner) is printed the same way.
 */
import type { Environment } from '../../../shared/contract/app';
import { StationError } from '../../../shared/errors';
import type { JournalRow } from '../journal/journal-types';
import { emptyRunOptions } from '../journal/print-journal';
import type { PrinterRecord } from '../printers';
import { SCANNER_CHECK_TEXT } from '../../../shared/keyboard/scanner-check';
import { buildScannerCheckLabel } from '../scanner-check-label';
import { buildTestLabel } from '../test-label';
import { prepared } from './label-documents';
import type { PreparedDocument } from './print-run';
import type { PrintService } from './print-service';

/** Which test label: the printer's own, or the scanner check barcode. */
export type TestLabelKind = 'printer' | 'scanner-check';

export interface TestPrintResult {
  runId: string;
  entry: JournalRow;
  /** The value in the test label's barcode (ZPL test labels only). */
  barcode: string | null;
}

const A6_POINTS = { width: 297.64, height: 419.53 };

/** Standard fonts cover WinAnsi only; anything else in a name is shown as "?". */
const safe = (text: string): string => text.replace(/[^\x20-\x7e\u00a0-\u00ff]/g, '?');

async function pdfTestPage(printer: PrinterRecord, stationName: string, at: Date): Promise<Uint8Array> {
  const { PDFDocument, StandardFonts } = await import('pdf-lib');
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([A6_POINTS.width, A6_POINTS.height]);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  page.drawRectangle({ x: 6, y: 6, width: A6_POINTS.width - 12, height: A6_POINTS.height - 12, borderWidth: 2 });
  page.drawText('Test print', { x: 20, y: A6_POINTS.height - 48, size: 24, font: bold });
  page.drawText(safe(`Printer: ${printer.name}`), { x: 20, y: A6_POINTS.height - 84, size: 11, font, maxWidth: A6_POINTS.width - 40 });
  page.drawText(safe(`Station: ${stationName}`), { x: 20, y: A6_POINTS.height - 102, size: 11, font, maxWidth: A6_POINTS.width - 40 });
  page.drawText(`Time: ${at.toISOString().replace('T', ' ').slice(0, 19)} UTC`, { x: 20, y: A6_POINTS.height - 120, size: 11, font });
  page.drawText('If this page fills an A6 label with its frame whole,', { x: 20, y: 60, size: 9, font });
  page.drawText('the printer is ready for PDF labels.', { x: 20, y: 47, size: 9, font });
  return pdf.save();
}

/** The scanner check barcode on an A6 page, for a PDF printer. */
export async function pdfScannerCheckPage(stationName: string): Promise<Uint8Array> {
  const [{ PDFDocument, StandardFonts }, { toBuffer: barcodePng }] = await Promise.all([import('pdf-lib'), import('bwip-js/node')]);
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([A6_POINTS.width, A6_POINTS.height]);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  page.drawText('Scanner check', { x: 20, y: A6_POINTS.height - 48, size: 24, font: bold });
  page.drawText(safe(`Station: ${stationName}`), { x: 20, y: A6_POINTS.height - 84, size: 11, font, maxWidth: A6_POINTS.width - 40 });
  const image = await pdf.embedPng(await barcodePng({ bcid: 'code128', text: SCANNER_CHECK_TEXT, scale: 2, height: 14, includetext: true, textxalign: 'center' }));
  // 0.45 pt a pixel: a bar of 0.9 pt (0.32 mm), the whole symbol inside the page's margins.
  const width = image.width * 0.45;
  page.drawImage(image, { x: (A6_POINTS.width - width) / 2, y: A6_POINTS.height - 220, width, height: image.height * 0.45 });
  page.drawText('Scan this barcode with the bench scanner: Setup > Scanner', { x: 20, y: 60, size: 9, font });
  page.drawText('says whether its scans are read right.', { x: 20, y: 47, size: 9, font });
  return pdf.save();
}

export async function runTestPrint(
  service: PrintService,
  environment: Environment,
  printer: PrinterRecord,
  operator: string,
  stationName: string,
  now: Date = new Date(),
  kind: TestLabelKind = 'printer',
): Promise<TestPrintResult> {
  let document: PreparedDocument;
  let barcode: string | null = null;
  if (kind === 'scanner-check') {
    barcode = SCANNER_CHECK_TEXT;
    document =
      printer.format === 'pdf'
        ? prepared(await pdfScannerCheckPage(stationName), 1, 'pdf')
        : prepared(new TextEncoder().encode(buildScannerCheckLabel({ stationName, dpi: printer.options.dpi }).zpl), 1, 'zpl');
  } else if (printer.format === 'pdf') {
    document = prepared(await pdfTestPage(printer, stationName, now), 1, 'pdf');
  } else {
    const label = buildTestLabel({ printerName: printer.name, stationName, printedAt: now, dpi: printer.options.dpi });
    barcode = label.barcode;
    document = prepared(new TextEncoder().encode(label.zpl), 1, 'zpl');
  }
  await service.claimPrinter(printer);
  const run = await service.launch({
    environment,
    kind: 'test',
    printer,
    operator,
    options: emptyRunOptions(),
    labels: [{ orderId: null, bundleId: null, bundlePosition: null, bundleCount: null, format: document.format }],
    documents: async () => document,
  });
  const outcome = await run.whenFirstLabelSettles();
  if (outcome.kind === 'error') throw outcome.error;
  if (!outcome.entry.runId) throw new StationError('INTERNAL', 'The test print was not recorded with its run.');
  return { runId: run.runId, entry: outcome.entry, barcode };
}
