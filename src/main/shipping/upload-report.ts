/**
 * What an upload hands back: the report workbook the dashboard names (worksheets "Successful
 * Orders" and "Failed Orders") and one PDF of all labels of the orders it created. The failed
 * sheet holds each row's own columns, in the file's order, plus `reason`: corrected in place, it
 * is uploaded again as it is (the reason column is not an upload column, so it is ignored). Rows
 * skipped because they exist already go to a third sheet, "Skipped Rows", so that neither of the
 * other two lies about them.
 */
import type { DeliveryClient } from '../api';
import { problemInWords, skipInWords } from './upload-rows';
import type { UploadRecord, StoredUploadRow } from './upload-store';

export async function uploadReport(record: UploadRecord, rows: StoredUploadRow[]): Promise<Buffer> {
  const { default: ExcelJS } = await import('exceljs');
  const book = new ExcelJS.Workbook();
  const columns = record.columns;
  const cellsOf = (row: StoredUploadRow) => columns.map((column) => row.cells[column] ?? '');

  const successful = book.addWorksheet('Successful Orders');
  successful.addRow([...columns, 'orderId', 'barcode', 'trackingUrl', 'bundle']);
  for (const row of rows) if (row.state === 'created') successful.addRow([...cellsOf(row), row.orderId ?? '', row.barcode ?? '', row.trackingUrl ?? '', row.bundleId ?? '']);

  const failed = book.addWorksheet('Failed Orders');
  failed.addRow([...columns, 'reason']);
  for (const row of rows) {
    if (row.state === 'invalid' || row.state === 'failed' || row.state === 'unknown' || row.state === 'cancelled' || row.state === 'ready') {
      const reason = row.state === 'ready' ? 'not sent yet' : row.problems.map(problemInWords).join('; ');
      failed.addRow([...cellsOf(row), reason]);
    }
  }

  const skipped = rows.filter((row) => row.state === 'skipped');
  if (skipped.length > 0) {
    const sheet = book.addWorksheet('Skipped Rows');
    sheet.addRow([...columns, 'orderId', 'reason']);
    for (const row of skipped) {
      const reason = row.skip ? skipInWords(row.skip) : 'skipped';
      sheet.addRow([...cellsOf(row), row.orderId ?? row.skip?.orderId ?? '', reason]);
    }
  }
  // Every cell is text, as it was read: a postal code or an order reference keeps its leading zeros.
  for (const sheet of book.worksheets) sheet.eachRow((row) => row.eachCell((cell) => (cell.numFmt = '@')));
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** One PDF of the label of every created row, in file order (A6 pages, as the service renders them). */
export async function uploadLabelsPdf(client: DeliveryClient, rows: StoredUploadRow[]): Promise<{ pdf: Buffer; labels: number }> {
  const { PDFDocument } = await import('pdf-lib');
  const merged = await PDFDocument.create();
  let labels = 0;
  for (const row of rows) {
    if (row.state !== 'created' || !row.orderId) continue;
    const label = await client.getLabel(row.orderId, { format: 'pdf' });
    const document = await PDFDocument.load(label.bytes);
    const pages = await merged.copyPages(document, document.getPageIndices());
    for (const page of pages) merged.addPage(page);
    labels += 1;
  }
  return { pdf: Buffer.from(await merged.save()), labels };
}
