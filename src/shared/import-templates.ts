/**
 * The three files a lead can bring to the station, as downloadable CSV templates: the header row
 * the station reads and one example row in the units it expects (weight in grams, sizes in
 * millimetres, dates as YYYY-MM-DD, countries as two letters). A unit test holds the headers to
 * the columns the station's readers accept.
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
export interface FileTemplate {
  id: 'manifest' | 'to-ship' | 'upload';
  fileName: string;
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

export const fileTemplates: readonly FileTemplate[] = [
  {
    // Setup › Import today's manifest: orders already created at the service, so their scans are found.
    id: 'manifest',
    fileName: 'manifest-template.csv',
    columns: ['orderId', 'orderRef', 'barcode', 'bundleId', 'recipient', 'status'],
    example: () => {
      const order = manifestExampleOrder;
      return [order.orderId, order.orderRef, order.barcode, order.bundleId, order.recipient, order.status];
    },
  },
  {
    // Scan › Orders to ship: orders not created yet; scanning a slip opens the ship panel.
    id: 'to-ship',
    fileName: 'orders-to-ship-template.csv',
    columns: [
      'orderRef',
      'locationId',
      'deliveryStreet',
      'deliveryNumber',
      'deliveryPostalCode',
      'deliveryCity',
      'deliveryCountry',
      'deliverySuffix',
      'deliveryName',
      'deliveryEmail',
      'deliveryPhone',
      'weight',
      'length',
      'width',
      'height',
      'parcels',
      'pudoId',
      'signature',
      'notAtNeighbour',
      'deliveryNote',
      'deliveryDate',
    ],
    example: (today) => [toShipExampleRef, '1101', 'Keizersgracht', '100', '1016 DK', 'Amsterdam', 'NL', 'A', 'Eva de Boer', 'eva@mail.example', '+31 6 12345678', '1200', '300', '200', '100', '2', '', 'no', 'no', '', nextDeliveryDate(today)],
  },
  {
    // Shift start › Create orders from a spreadsheet: every row becomes an order at once, as the service's dashboard upload.
    id: 'upload',
    fileName: 'spreadsheet-upload-template.csv',
    columns: [
      'orderRef',
      'locationId',
      'deliveryStreet',
      'deliveryNumber',
      'deliveryPostalCode',
      'deliveryCity',
      'deliveryCountry',
      'name',
      'description',
      'length',
      'width',
      'height',
      'weight',
      'pickupNote',
      'deliveryName',
      'deliveryEmail',
      'deliveryPhone',
      'deliverySuffix',
      'deliveryNote',
      'deliveryDate',
      'signature',
      'notAtNeighbour',
    ],
    example: (today) => [uploadExampleRef, '1101', 'Oudegracht', '150', '3511 AZ', 'Utrecht', 'NL', 'Order 2001', 'Books', '300', '200', '100', '1200', '', 'Sanne Bos', 'sanne@mail.example', '+31 6 87654321', '', '', nextDeliveryDate(today), 'no', 'no'],
  },
];

/** A template as CSV text, made for a download on `today`: a header row and the example row, quoted where a cell needs it. */
export function templateCsv(template: FileTemplate, today: Date): string {
  const cell = (value: string) => (/[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
  return `${template.columns.map(cell).join(',')}\n${template.example(today).map(cell).join(',')}\n`;
}
