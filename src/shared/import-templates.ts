/**
 * The three files a lead can bring to the station, as downloadable CSV templates: the header row
 * the station reads and one example row in the units it expects (weight in grams, sizes in
 * millimetres, dates as YYYY-MM-DD, countries as two letters), made of the columns its reader
 * reads (import-columns.ts).
 */
import { manifestColumns, toShipColumns, uploadColumns, type ExampleRow, type ImportColumns } from './import-columns';

export interface FileTemplate {
  id: 'manifest' | 'to-ship' | 'upload';
  fileName: string;
  /** The header row: the columns the example gives, in its order. */
  columns: readonly string[];
  example: readonly string[];
}

/** A template from one example row: its columns are the row's (each one its reader's), in the row's order. */
function template<C extends ImportColumns>(id: FileTemplate['id'], fileName: string, _columns: C, row: ExampleRow<C>): FileTemplate {
  const cells: [string, string][] = Object.entries(row);
  return { id, fileName, columns: cells.map(([column]) => column), example: cells.map(([, value]) => value) };
}

export const fileTemplates: readonly FileTemplate[] = [
  // Setup › Import today's manifest: orders already created at the service, so their scans are found.
  template('manifest', 'manifest-template.csv', manifestColumns, {
    orderId: '1234567',
    orderRef: 'SHOP-1001',
    barcode: 'DT6068581607000',
    bundleId: 'BND-US3A3XAM',
    recipient: 'Eva de Boer',
    status: 'draft',
  }),
  // Scan › Orders to ship: orders not created yet; scanning a slip opens the ship panel.
  template('to-ship', 'orders-to-ship-template.csv', toShipColumns, {
    orderRef: 'SHOP-1001',
    locationId: '1101',
    deliveryStreet: 'Keizersgracht',
    deliveryNumber: '100',
    deliveryPostalCode: '1016 DK',
    deliveryCity: 'Amsterdam',
    deliveryCountry: 'NL',
    deliverySuffix: 'A',
    deliveryName: 'Eva de Boer',
    deliveryEmail: 'eva@mail.example',
    deliveryPhone: '+31 6 12345678',
    weight: '1200',
    length: '300',
    width: '200',
    height: '100',
    parcels: '2',
    pudoId: '',
    signature: 'no',
    notAtNeighbour: 'no',
    deliveryNote: '',
    deliveryDate: '2026-12-01',
  }),
  // Shift start › Create orders from a spreadsheet: every row becomes an order at once, as the service's dashboard upload.
  template('upload', 'spreadsheet-upload-template.csv', uploadColumns, {
    orderRef: 'SHOP-2001',
    locationId: '1101',
    deliveryStreet: 'Vismarkt',
    deliveryNumber: '3',
    deliveryPostalCode: '9711 KT',
    deliveryCity: 'Groningen',
    deliveryCountry: 'NL',
    name: 'Order 2001',
    description: 'Books',
    length: '300',
    width: '200',
    height: '100',
    weight: '1200',
    pickupNote: '',
    deliveryName: 'Sanne Bos',
    deliveryEmail: 'sanne@mail.example',
    deliveryPhone: '+31 6 87654321',
    deliverySuffix: '',
    deliveryNote: '',
    deliveryDate: '2026-12-01',
    signature: 'no',
    notAtNeighbour: 'no',
  }),
];

/** A template as CSV text: a header row and the example row, quoted where a cell needs it. */
export function templateCsv(template: FileTemplate): string {
  const cell = (value: string) => (/[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
  return `${template.columns.map(cell).join(',')}\n${template.example.map(cell).join(',')}\n`;
}
