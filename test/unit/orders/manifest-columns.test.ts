import { describe, expect, it } from 'vitest';
import { resolveColumns } from '../../../src/main/orders/manifest-columns';
import { StationError } from '../../../src/shared/errors';
import { cellText, detectDelimiter } from '../../../src/main/spreadsheets/sheet-readers';
import { detectFormat } from '../../../src/main/spreadsheets/spreadsheet-format';

/** The facts of resolveColumns' refusal of these headers. */
function refusal(headers: string[]): unknown {
  try {
    resolveColumns(headers);
  } catch (error) {
    if (error instanceof StationError) return error.facts;
  }
  throw new Error('the headers were not refused');
}

describe('manifest columns', () => {
  it('finds columns whatever their spelling', () => {
    const columns = resolveColumns(['Order ID', 'order_ref', 'Parcel Barcode', 'orderBundleId', 'Delivery name', 'STATUS']);
    expect(columns.orderId).toEqual({ index: 0, header: 'Order ID' });
    expect(columns.orderRef?.index).toBe(1);
    expect(columns.barcode?.index).toBe(2);
    expect(columns.bundleId?.index).toBe(3);
    expect(columns.recipient?.index).toBe(4);
    expect(columns.status?.index).toBe(5);
  });

  it('leaves optional columns out when the file has none', () => {
    const columns = resolveColumns(['orderId', 'orderRef']);
    expect(columns.barcode).toBeNull();
    expect(columns.status).toBeNull();
  });

  it('uses an explicit mapping over the usual names', () => {
    const columns = resolveColumns(['Zending', 'Klantref', 'orderRef'], { orderId: 'Zending', orderRef: 'Klantref' });
    expect(columns.orderId?.index).toBe(0);
    expect(columns.orderRef?.index).toBe(1);
  });

  it('refuses a file without an order id column and lists the columns it has, as facts the screen words', () => {
    expect(() => resolveColumns(['orderRef', 'deliveryStreet'])).toThrow(/no orderId column.*"orderRef", "deliveryStreet"/);
    expect(refusal(['orderRef', 'deliveryStreet'])).toEqual({ subject: 'no-order-id-column', columns: '"orderRef", "deliveryStreet"' });
  });

  it('tells a file of orders to create (an orders-to-ship export, an upload) from a manifest without order ids', () => {
    expect(refusal(['orderRef', 'Location ID', 'delivery_street', 'deliveryCity'])).toEqual({ subject: 'orders-to-create', columns: '"orderRef", "Location ID", "delivery_street", "deliveryCity"' });
  });

  it('refuses a mapping to a column the file does not have', () => {
    expect(() => resolveColumns(['orderId'], { barcode: 'Tracking' })).toThrow(/no column "Tracking" for barcode/);
  });
});

describe('manifest formats', () => {
  it('tells XLSX from CSV by content, not by name', () => {
    expect(detectFormat(Buffer.from('PK\x03\x04rest'), 'orders.csv')).toBe('xlsx');
    expect(detectFormat(Buffer.from('orderId,orderRef\n'), 'orders.txt')).toBe('csv');
    expect(detectFormat(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0]), 'orders.xls')).toEqual({ unsupported: expect.stringContaining('.xls') });
    expect(detectFormat(Buffer.from('not a zip'), 'orders.xlsx')).toEqual({ unsupported: expect.stringContaining('orders.xlsx') });
  });

  it('detects the delimiter from the header line', () => {
    expect(detectDelimiter(Buffer.from('orderId,orderRef,barcode\n1;2;3'))).toBe(',');
    expect(detectDelimiter(Buffer.from('orderId;orderRef;"a,b"\n'))).toBe(';');
    expect(detectDelimiter(Buffer.from('orderId\torderRef\n'))).toBe('\t');
  });

  it('reads spreadsheet cells as text, refusing numbers Excel rounded', () => {
    expect(cellText('s', '0', [' REF-1 '])).toBe('REF-1');
    expect(cellText('s', '7', [' REF-1 '])).toEqual({ error: expect.stringContaining('shared text') });
    expect(cellText('n', '12345', [])).toBe('12345');
    expect(cellText('n', String(2 ** 60), [])).toEqual({ error: expect.stringContaining('too long') });
    expect(cellText('str', 'X1', [])).toBe('X1');
    expect(cellText('e', '#REF!', [])).toEqual({ error: 'holds the spreadsheet error #REF!' });
    expect(cellText('b', '1', [])).toBe('true');
    expect(cellText('inlineStr', '   ', [])).toBeNull();
  });
});
