/**
 * The three files a lead can bring to the station, as downloadable CSV templates: the header row
 * the station reads and one example row in the units it expects (weight in grams, sizes in
 * millimetres, dates as YYYY-MM-DD, countries as two letters). A unit test holds the headers to
 * the columns the station's readers accept.
 */
export interface FileTemplate {
  id: 'manifest' | 'to-ship' | 'upload';
  fileName: string;
  columns: readonly string[];
  example: readonly string[];
}

export const fileTemplates: readonly FileTemplate[] = [
  {
    // Setup › Import today's manifest: orders already created at the service, so their scans are found.
    id: 'manifest',
    fileName: 'manifest-template.csv',
    columns: ['orderId', 'orderRef', 'barcode', 'bundleId', 'recipient', 'status'],
    example: ['1234567', 'SHOP-1001', 'DT6068581607000', 'BND-US3A3XAM', 'Eva de Boer', 'draft'],
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
    example: ['SHOP-1001', '1101', 'Keizersgracht', '100', '1016 DK', 'Amsterdam', 'NL', 'A', 'Eva de Boer', 'eva@mail.example', '+31 6 12345678', '1200', '300', '200', '100', '2', '', 'no', 'no', '', '2026-12-01'],
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
    example: ['SHOP-2001', '1101', 'Vismarkt', '3', '9711 KT', 'Groningen', 'NL', 'Order 2001', 'Books', '300', '200', '100', '1200', '', 'Sanne Bos', 'sanne@mail.example', '+31 6 87654321', '', '', '2026-12-01', 'no', 'no'],
  },
];

/** A template as CSV text: a header row and the example row, quoted where a cell needs it. */
export function templateCsv(template: FileTemplate): string {
  const cell = (value: string) => (/[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
  return `${template.columns.map(cell).join(',')}\n${template.example.map(cell).join(',')}\n`;
}
