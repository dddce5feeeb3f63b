/**
 * The three files a lead can bring to the station, as downloadable CSV templates: the header row
 * the station reads and one example row in the units it expects (weight in grams, sizes in
 * millimetres, dates as YYYY-MM-DD, countries as two letters), made of the columns its reader
 * reads (import-columns.ts).
 *
 * Each template works as it is on the embedded sandbox, and none gets in the way of another or of
 * the sandbox's own day of orders:
 * - every identifier is one the sandbox never makes (its refs start NW-, KDV or RF; its barcodes
 *   are DT or DL, then two groups of six digits each starting 1–9, then a check digit; its
 *   bundles are BND- and eight of A–Z and 2–9 without I and O; its order ids are random version-4
 *   UUIDs), and the three templates name three different orders;
 * - the addresses lie in the area of location 1101 (Amsterdam-Westpoort, the sandbox's first
 *   location) and the delivery date is the next delivery day after the day of the download;
 * - the manifest's order is one the sandbox holds as created earlier (src/sandbox/world/
 *   guide-example.ts), so its barcode prints once the manifest is imported.
 */
import { manifestColumns, toShipColumns, uploadColumns, type ExampleRow, type ImportColumns } from './import-columns';

export interface FileTemplate {
  id: 'manifest' | 'to-ship' | 'upload';
  fileName: string;
  /** The header row: the columns the example gives, in its order. */
  columns: readonly string[];
  /** The example row, for a file downloaded on `today` (the station's local day). */
  example(today: Date): readonly string[];
}

/** The order the manifest template lists, as the service knows it (the sandbox holds it). */
export const manifestExampleOrder = {
  // Version 1, not 4: never one of the sandbox's random order ids.
  orderId: '5e2a9c71-4b0d-1e4f-9a3c-2d7b8e6f1000',
  orderRef: 'SHOP-1000',
  // A first group of digits starting with 0: never a sandbox barcode.
  barcode: 'DT0000010001006',
  // I and 0 and 1 are not in the sandbox's bundle alphabet.
  bundleId: 'BND-GUIDE001',
  recipient: 'Daan Visser',
  status: 'draft',
} as const;

/** The refs the orders-to-ship and upload templates create. */
export const toShipExampleRef = 'SHOP-1001';
export const uploadExampleRef = 'SHOP-2001';

const pad = (n: number) => String(n).padStart(2, '0');

/** The next day with deliveries after `today` (Monday to Saturday), as YYYY-MM-DD in local time. */
export function nextDeliveryDate(today: Date): string {
  const day = new Date(today.getFullYear(), today.getMonth(), today.getDate());
  do day.setDate(day.getDate() + 1);
  while (day.getDay() === 0);
  return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
}

/**
 * A template from its example row, made for the day of the download: its columns are the row's
 * (each one its reader's, the types say), in the row's order, which is the same on any day.
 */
function template<C extends ImportColumns>(id: FileTemplate['id'], fileName: string, _columns: C, row: (today: Date) => ExampleRow<C>): FileTemplate {
  const columns = Object.keys(row(new Date(0)));
  return { id, fileName, columns, example: (today) => Object.values<string>(row(today)) };
}

export const fileTemplates: readonly FileTemplate[] = [
  // Setup › Import today's manifest: orders already created at the service, so their scans are found.
  template('manifest', 'manifest-template.csv', manifestColumns, () => {
    const { orderId, orderRef, barcode, bundleId, recipient, status } = manifestExampleOrder;
    return { orderId, orderRef, barcode, bundleId, recipient, status };
  }),
  // Scan › Orders to ship: orders not created yet; scanning a slip opens the ship panel.
  template('to-ship', 'orders-to-ship-template.csv', toShipColumns, (today) => ({
    orderRef: toShipExampleRef,
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
    deliveryDate: nextDeliveryDate(today),
  })),
  // Shift start › Create orders from a spreadsheet: every row becomes an order at once, as the service's dashboard upload.
  template('upload', 'spreadsheet-upload-template.csv', uploadColumns, (today) => ({
    orderRef: uploadExampleRef,
    locationId: '1101',
    deliveryStreet: 'Oudegracht',
    deliveryNumber: '150',
    deliveryPostalCode: '3511 AZ',
    deliveryCity: 'Utrecht',
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
    deliveryDate: nextDeliveryDate(today),
    signature: 'no',
    notAtNeighbour: 'no',
  })),
];

/** A template as CSV text, made for a download on `today`: a header row and the example row, quoted where a cell needs it. */
export function templateCsv(template: FileTemplate, today: Date): string {
  const cell = (value: string) => (/[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
  return `${template.columns.map(cell).join(',')}\n${template.example(today).map(cell).join(',')}\n`;
}
