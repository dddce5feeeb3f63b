/**
 * The columns of each file a lead brings to the station, written once: the readers take their
 * column names from here, and the first-hour guide's templates are made of them
 * (import-templates.ts), so a template cannot name a column its reader does not read.
 */

/** Today's manifest: orders already created at the service (`orderId` fetches each label). */
export const manifestColumns = {
  required: ['orderId'],
  optional: ['orderRef', 'barcode', 'bundleId', 'recipient', 'status'],
} as const;

/** The spreadsheet upload, with the service's dashboard upload's column names. */
export const uploadColumns = {
  required: ['orderRef', 'locationId', 'deliveryStreet', 'deliveryNumber', 'deliveryPostalCode', 'deliveryCity', 'deliveryCountry'],
  optional: [
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
    // Read only to refuse more than one: a row of an upload is one parcel (one order, one label).
    'parcels',
  ],
} as const;

/** Orders to ship (the shop's export): the upload's required columns, and what the ship panel uses. */
export const toShipColumns = {
  required: uploadColumns.required,
  optional: [
    'deliverySuffix',
    'deliveryName',
    'deliveryEmail',
    'deliveryPhone',
    'weight',
    'length',
    'width',
    'height',
    'signature',
    'notAtNeighbour',
    'deliveryNote',
    'deliveryDate',
    'pudoId',
    'parcels',
    'name',
    'description',
  ],
} as const;

export interface ImportColumns {
  readonly required: readonly string[];
  readonly optional: readonly string[];
}

/** A row of example values for a file: every required column, any optional ones, nothing else. */
export type ExampleRow<C extends ImportColumns> = Record<C['required'][number], string> & Partial<Record<C['optional'][number], string>>;
