/**
 * Shipping from the bench: orders to ship, the routing check, creating orders (one per parcel, a
 * bundle when more than one) through the creation ledger, and settling parcels of unknown outcome.
 */
import { z } from 'zod';
import {
  AddressCheckRequestSchema,
  AddressCheckResponseSchema,
  CoverageSchema,
  PickupPointSearchResponseSchema,
  PickupPointSearchSchema,
  PostalCodeCheckRequestSchema,
  PostalCodeCheckResponseSchema,
} from '../api/schemas';
import { defineCall } from './define';
import { ManifestFileNameSchema, manifestPathRefusal, PickedFileHandleSchema } from './imports';

const LocationIdSchema = z.string().trim().regex(/^\d{1,12}$/, 'the location is a number');

/**
 * A parcel's weight in grams, as the service takes it: the bench scale's stable reading, or what
 * the packer typed. Whole grams, more than nothing (an empty pan is not a parcel).
 */
export const ParcelWeightSchema = z.number().int('the weight is whole grams').min(1, 'the weight should be more than 0 g').max(1_000_000, 'the weight should be at most 1,000,000 g');

export const ShipAddressSchema = z.object({
  street: z.string().trim().min(1, 'street is empty'),
  houseNumber: z.string().trim().min(1, 'house number is empty'),
  suffix: z.string().trim().max(20).default(''),
  postalCode: z.string().trim().min(1, 'postal code is empty'),
  city: z.string().trim().default(''),
  countryCode: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{2}$/, 'country should be a two-letter code such as NL')
    .transform((code) => code.toUpperCase()),
});
export type ShipAddress = z.output<typeof ShipAddressSchema>;

/** An order to ship as the station keeps it (from an import, or typed in the new-shipment form). */
export const ShipmentSchema = z.object({
  orderRef: z.string().trim().min(1).max(200),
  locationId: z.string().regex(/^\d{1,12}$/),
  recipient: z.object({ name: z.string().nullable(), email: z.string().nullable(), phone: z.string().nullable() }),
  address: ShipAddressSchema,
  /** From the shop's row; null means 1 unless the packer says otherwise. */
  parcels: z.number().int().min(1).max(50).nullable(),
  pudoId: z.string().min(1).nullable(),
  weight: z.number().positive().nullable(),
  dimensions: z.object({ length: z.number().positive(), width: z.number().positive(), height: z.number().positive() }).nullable(),
  signature: z.boolean(),
  notAtNeighbour: z.boolean(),
  deliveryNote: z.string().nullable(),
  deliveryDate: z.string().nullable(),
  name: z.string().nullable(),
});
export type Shipment = z.output<typeof ShipmentSchema>;

export const ToShipImportRowSchema = z.object({
  row: z.number().int(),
  orderRef: z.string().nullable(),
  outcome: z.enum(['new', 'updated', 'rejected']),
  reason: z.string().nullable(),
});

export const ToShipImportReportSchema = z.object({
  fileName: z.string(),
  newRows: z.number().int(),
  updatedRows: z.number().int(),
  rejectedRows: z.number().int(),
  rows: z.array(ToShipImportRowSchema),
});
export type ToShipImportReport = z.output<typeof ToShipImportReportSchema>;

export const LedgerEntrySchema = z.object({
  orderRef: z.string(),
  parcel: z.number().int(),
  parcelCount: z.number().int(),
  serviceRef: z.string(),
  state: z.enum(['intended', 'posting', 'created', 'rejected', 'unknown']),
  orderId: z.string().nullable(),
  barcode: z.string().nullable(),
  bundleId: z.string().nullable(),
  reason: z.string().nullable(),
  decidedBy: z.string().nullable(),
  updatedAt: z.string(),
});
export type LedgerEntryData = z.output<typeof LedgerEntrySchema>;

export const AddressDifferenceSchema = z.object({ field: z.string(), sent: z.string(), resolved: z.string() });

export const ShipInputSchema = z
  .object({
    orderRef: z.string().trim().min(1).max(200),
    parcels: z.number().int().min(1).max(50).optional(),
    pudoId: z.string().trim().min(1).optional(),
    printerId: z.string().min(1).optional(),
    /** The packer saw the service's corrected address and ships to it. */
    acceptCorrectedAddress: z.boolean().optional(),
    /** In live: the number of orders the packer confirmed creating (must equal what will be created). */
    confirmLive: z.number().int().min(0).optional(),
    /** Grams, from the scale or typed at the bench: replaces the weight the order came with, for every parcel. */
    weight: ParcelWeightSchema.optional(),
  })
  .strict();
export type ShipInput = z.input<typeof ShipInputSchema>;

export const ShippedParcelSchema = z.object({
  parcel: z.number().int(),
  parcelCount: z.number().int(),
  /** The parcel's own order reference at the service (the shop's for parcel 1, `<ref>-P<n>` after): what its label and History call it. */
  serviceRef: z.string(),
  orderId: z.string(),
  barcode: z.string().nullable(),
  bundleId: z.string().nullable(),
  /** Created by this call, or found created earlier (then only printed). */
  createdNow: z.boolean(),
  printed: z.enum(['printed', 'duplicate', 'failed']),
  journalEntryId: z.number().int().nullable(),
  printProblem: z.string().nullable(),
});

export const ShipOutcomeSchema = z.discriminatedUnion('outcome', [
  z.object({
    outcome: z.literal('shipped'),
    orderRef: z.string(),
    parcels: z.array(ShippedParcelSchema),
    elapsedMs: z.number(),
  }),
  z.object({
    outcome: z.literal('confirm-address'),
    orderRef: z.string(),
    differences: z.array(AddressDifferenceSchema),
    resolved: ShipAddressSchema,
  }),
  z.object({
    outcome: z.literal('confirm-live'),
    orderRef: z.string(),
    toCreate: z.number().int(),
  }),
]);
export type ShipOutcome = z.output<typeof ShipOutcomeSchema>;

/** The new-shipment form: a parcel with no slip (a return to a supplier, a replacement). */
export const NewShipmentInputSchema = z
  .object({
    orderRef: z.string().trim().min(1, 'the reference is empty').max(200),
    locationId: LocationIdSchema,
    recipientName: z.string().trim().min(1, 'the recipient is empty').max(200),
    address: ShipAddressSchema,
    parcels: z.number().int().min(1).max(50),
    pudoId: z.string().trim().min(1).optional(),
    /** Grams, from the scale or typed. */
    weight: ParcelWeightSchema.optional(),
  })
  .strict();

export const shippingCalls = {
  /** Keeps a typed-in shipment as an order to ship; the ship panel then ships it like a scanned slip. */
  'shipping.newShipment': defineCall(NewShipmentInputSchema, ShipmentSchema),
  'shipping.checkAddress': defineCall(z.object({ locationId: LocationIdSchema, request: AddressCheckRequestSchema }).strict(), AddressCheckResponseSchema),
  'shipping.checkPostalCode': defineCall(
    z.object({ locationId: LocationIdSchema, request: PostalCodeCheckRequestSchema }).strict(),
    PostalCodeCheckResponseSchema.extend({ cached: z.boolean() }),
  ),
  'shipping.coverage': defineCall(
    z.object({ locationId: LocationIdSchema, refresh: z.boolean().optional() }).strict(),
    z.object({ coverage: CoverageSchema, fetchedAt: z.string(), ageSeconds: z.number().int() }),
  ),
  'shipping.pickupPoints': defineCall(PickupPointSearchSchema, PickupPointSearchResponseSchema),
  'shipping.toShip': defineCall(z.object({ orderRef: z.string().trim().min(1) }).strict(), ShipmentSchema.nullable()),
  'shipping.import': defineCall(
    z
      .object({
        source: z.discriminatedUnion('kind', [
          /** A file the desktop app's own file dialog (or the CLI) picked: only its single-use handle crosses. */
          z.object({ kind: z.literal('picked'), handle: PickedFileHandleSchema }).strict(),
          /** Refused on every host, as for a manifest: kept only so the refusal says why. */
          z
            .object({ kind: z.literal('path'), path: z.unknown() })
            .refine(() => false, { message: manifestPathRefusal }),
          z.object({ kind: z.literal('bytes'), fileName: ManifestFileNameSchema, base64: z.string().max(28 * 1024 * 1024) }).strict(),
        ]),
      })
      .strict(),
    ToShipImportReportSchema,
  ),
  'shipping.ship': defineCall(ShipInputSchema, ShipOutcomeSchema),
  'shipping.ledger': defineCall(z.object({ orderRef: z.string().trim().min(1) }).strict(), z.array(LedgerEntrySchema)),
  'shipping.unknown': defineCall(z.object({}).strict(), z.array(LedgerEntrySchema)),
  /** A lead settles a parcel of unknown outcome: it exists (with its order id) or it does not. */
  'shipping.decide': defineCall(
    z
      .object({
        orderRef: z.string().trim().min(1),
        parcel: z.number().int().min(1),
        exists: z.boolean(),
        orderId: z.string().trim().min(1).optional(),
        operator: z.string().trim().min(1),
        reason: z.string().trim().min(3),
      })
      .strict()
      .refine((input) => !input.exists || input.orderId !== undefined, { message: 'orderId is needed when the order exists', path: ['orderId'] }),
    LedgerEntrySchema,
  ),
};
