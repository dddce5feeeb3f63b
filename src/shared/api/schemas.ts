/**
 * The Delivery Service API's documents as zod schemas (spec: ../shared/spec/delivery-api.md).
 * Shared by the station's API client (which parses every response with them) and the sandbox
 * (which validates requests with them), so both read the spec the same way — but neither
 * shares the other's logic.
 *
 * Where the spec says "not shown", responses are parsed permissively (unknown fields pass
 * through, optional where presence is not promised) and requests strictly.
 */
import { z } from 'zod';

export const orderStatuses = [
  'draft',
  'expected',
  'in_transit',
  'out_for_delivery',
  'awaiting_next_attempt',
  'at_pickup_point',
  'completed',
  'failed',
  'in_return_transit',
  'returned',
  'cancelled',
  'rejected',
  'address_not_found',
  'inactive',
  'missing',
  'lost',
  'error',
] as const;
export const OrderStatusSchema = z.enum(orderStatuses);
export type OrderStatus = z.infer<typeof OrderStatusSchema>;

/** Statuses that never change again (spec: States and transitions). */
export const terminalStatuses: readonly OrderStatus[] = ['completed', 'returned', 'lost', 'cancelled'];

/** Cancel is always allowed up to and including in_transit. */
export const cancellableStatuses: readonly OrderStatus[] = ['draft', 'expected', 'in_transit'];

export const CountryCodeSchema = z
  .string()
  .regex(/^[A-Za-z]{2}$/, 'should be a two-letter ISO 3166-1 alpha-2 code');

const nonEmpty = (field: string) => z.string({ error: `${field} should not be empty` }).trim().min(1, `${field} should not be empty`);

export const AddressSchema = z.object({
  street: nonEmpty('street'),
  houseNumber: nonEmpty('houseNumber'),
  suffix: z.string().optional(),
  postalCode: nonEmpty('postalCode'),
  city: z.string().optional(),
  countryCode: CountryCodeSchema,
});
export type Address = z.infer<typeof AddressSchema>;

export const DimensionsSchema = z
  .object({ length: z.number().positive(), width: z.number().positive(), height: z.number().positive() })
  .refine((d) => d.length >= d.width && d.width >= d.height, {
    message: 'dimensions must satisfy length >= width >= height',
  });
export type Dimensions = z.infer<typeof DimensionsSchema>;

export const CoordinatesSchema = z.object({ lng: z.number(), lat: z.number() });

export const ResolvedAddressSchema = z.object({
  street: z.string(),
  houseNumber: z.string(),
  suffix: z.string(),
  postalCode: z.string(),
  city: z.string(),
  countryCode: z.string(),
  coordinates: CoordinatesSchema,
});
export type ResolvedAddress = z.infer<typeof ResolvedAddressSchema>;

// ---- POST /orders/check/{locationId}

export const AddressCheckRequestSchema = z.object({
  deliveryAddress: AddressSchema,
  dimensions: DimensionsSchema.optional(),
  weight: z.number().positive().optional(),
  signature: z.boolean().optional(),
  notAtNeighbour: z.boolean().optional(),
  pickupPoint: z.boolean().optional(),
});
export type AddressCheckRequest = z.infer<typeof AddressCheckRequestSchema>;

export const MissingCapabilitiesSchema = z.object({
  signature: z.boolean().optional(),
  notAtNeighbour: z.boolean().optional(),
  pickupPoint: z.boolean().optional(),
});

export const AddressCheckResponseSchema = z.looseObject({
  deliverable: z.boolean(),
  resolvedAddress: ResolvedAddressSchema,
  reason: z.string().optional(),
  missingCapabilities: MissingCapabilitiesSchema.optional(),
});
export type AddressCheckResponse = z.infer<typeof AddressCheckResponseSchema>;

// ---- POST /orders/check/postal-code/{locationId}

export const PostalCodeCheckRequestSchema = z.object({
  // Which fields are required is not shown; the station always sends both.
  postalCode: nonEmpty('postalCode'),
  countryCode: CountryCodeSchema,
  dimensions: DimensionsSchema.optional(),
  weight: z.number().positive().optional(),
  signature: z.boolean().optional(),
  notAtNeighbour: z.boolean().optional(),
});
export type PostalCodeCheckRequest = z.infer<typeof PostalCodeCheckRequestSchema>;

export const PostalCodeCheckResponseSchema = z.looseObject({
  deliverable: z.boolean(),
  reason: z.string().optional(),
  missingCapabilities: MissingCapabilitiesSchema.optional(),
});
export type PostalCodeCheckResponse = z.infer<typeof PostalCodeCheckResponseSchema>;

// ---- GET /coverage/postal-codes/{locationId}

export const CoverageSchema = z.record(z.string().regex(/^[A-Z]{2}$/), z.array(z.string()).min(1));
export type Coverage = z.infer<typeof CoverageSchema>;

// ---- GET /pickup-points

export const pickupPointTypes = ['SERVICE_POINT', 'PARCEL_LOCKER', 'POST_OFFICE', 'MAILBOX'] as const;
export const PickupPointTypeSchema = z.enum(pickupPointTypes);

export const pickupPointTypeFilters = ['PARCEL_LOCKER', 'PICKUP_DROPOFF_POINT', 'MAILBOX_POBOX'] as const;
export const PickupPointTypeFilterSchema = z.enum(pickupPointTypeFilters);
export type PickupPointTypeFilter = z.infer<typeof PickupPointTypeFilterSchema>;

/** The `types` filter is broader than the returned `type` (spec table). */
export const pickupTypeFilterMatches: Record<PickupPointTypeFilter, readonly z.infer<typeof PickupPointTypeSchema>[]> = {
  PARCEL_LOCKER: ['PARCEL_LOCKER'],
  PICKUP_DROPOFF_POINT: ['SERVICE_POINT', 'POST_OFFICE'],
  MAILBOX_POBOX: ['MAILBOX'],
};

const OpeningSlotSchema = z.object({ openTime: z.string(), closeTime: z.string() });

// Which pickup point fields may be absent is not shown: only the id, type and name are required.
export const PickupPointSchema = z.looseObject({
  pudoId: z.string().min(1),
  carrierPudoId: z.string().optional(),
  type: PickupPointTypeSchema,
  name: z.string(),
  address: z
    .looseObject({
      street: z.string().optional(),
      street2: z.string().optional(),
      postalCode: z.string().optional(),
      city: z.string().optional(),
      state: z.string().optional(),
      suburb: z.string().optional(),
      countryCode: z.string().optional(),
    })
    .optional(),
  geo: z.object({ lat: z.number(), lng: z.number() }).optional(),
  openingHours: z
    .looseObject({
      open24h: z.boolean().optional(),
      weekdays: z.record(z.string(), z.array(OpeningSlotSchema)).optional(),
    })
    .optional(),
  facilities: z
    .looseObject({
      carParking: z.boolean().optional(),
      bikeParking: z.boolean().optional(),
      accessibility: z.boolean().optional(),
      waitingArea: z.boolean().optional(),
    })
    .optional(),
  contact: z.looseObject({ phone: z.string().optional(), email: z.string().optional() }).optional(),
  distanceMeters: z.number().nonnegative().optional(),
  locationGuidance: z.string().optional(),
});
export type PickupPoint = z.infer<typeof PickupPointSchema>;

export const PickupPointSearchSchema = z
  .object({
    countryCode: CountryCodeSchema.optional(),
    postalCode: z.string().trim().min(1).optional(),
    lat: z.number().min(-90).max(90).optional(),
    lng: z.number().min(-180).max(180).optional(),
    city: z.string().optional(),
    street: z.string().optional(),
    state: z.string().optional(),
    maxResults: z.number().int().min(1).max(100).optional(),
    maxDistanceKm: z.number().positive().optional(),
    types: z.array(PickupPointTypeFilterSchema).optional(),
  })
  .refine((q) => (q.lat !== undefined && q.lng !== undefined) || (q.countryCode !== undefined && q.postalCode !== undefined), {
    message: 'countryCode and postalCode are required unless lat and lng are given',
  });
export type PickupPointSearch = z.infer<typeof PickupPointSearchSchema>;

export const PickupPointSearchResponseSchema = z.looseObject({
  points: z.array(PickupPointSchema),
  totalFound: z.number().int().nonnegative(),
});
export type PickupPointSearchResponse = z.infer<typeof PickupPointSearchResponseSchema>;

// ---- POST /orders

export const CreateOrderRequestSchema = z.object({
  locationId: nonEmpty('locationId'),
  orderRef: z.string().optional(),
  orderBundleId: z.string().min(1).optional(),
  name: z.string().optional(),
  deliveryName: nonEmpty('deliveryName'),
  deliveryEmail: z.string().optional(),
  deliveryPhone: z.string().optional(),
  pudoId: z.string().min(1).optional(),
  deliveryAddress: AddressSchema,
  dimensions: DimensionsSchema.optional(),
  weight: z.number().positive().optional(),
  signature: z.boolean().optional(),
  notAtNeighbour: z.boolean().optional(),
  deliveryDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'deliveryDate should be YYYY-MM-DD').optional(),
});
export type CreateOrderRequest = z.infer<typeof CreateOrderRequestSchema>;

export const OrderBundleSchema = z.object({ id: z.number().int(), bundleId: z.string().min(1) });
export type OrderBundle = z.infer<typeof OrderBundleSchema>;

/** The order record. "Other fields: not shown" — unknown fields pass through. */
export const OrderRecordSchema = z.looseObject({
  id: z.number().int(),
  orderId: z.string().min(1),
  orderRef: z.string(),
  status: OrderStatusSchema,
  name: z.string().optional(),
  barcode: z.string().min(1),
  pudoId: z.string().optional(),
  trackingUrl: z.string().optional(),
  deliveryName: z.string().optional(),
  deliveryEmail: z.string().optional(),
  deliveryAddress: z.string().optional(),
  deliveryEta: z.string().optional(),
  deliveryEtaDate: z.string().optional(),
  deliveryDate: z.string().optional(),
  locationId: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
  orderBundle: OrderBundleSchema.nullable().optional(),
});
export type OrderRecord = z.infer<typeof OrderRecordSchema>;

export const CreateOrderResponseSchema = OrderRecordSchema.extend({
  orderBundle: OrderBundleSchema,
  trackingUrl: z.string(),
});
export type CreateOrderResponse = z.infer<typeof CreateOrderResponseSchema>;

// ---- labels

export const labelFormats = ['pdf', 'zpl'] as const;
export const LabelFormatSchema = z.enum(labelFormats);
export type LabelFormat = z.infer<typeof LabelFormatSchema>;

export const orientations = ['landscape', 'portrait'] as const;
export const OrientationSchema = z.enum(orientations);
export type Orientation = z.infer<typeof OrientationSchema>;

export const LabelSchema = z.object({ label: z.string().min(1) });
export type Label = z.infer<typeof LabelSchema>;

export const BundleLabelsSchema = z.array(LabelSchema);

// ---- errors

export const ErrorBodySchema = z.looseObject({
  statusCode: z.number().int(),
  message: z.union([z.string(), z.array(z.string())]),
  error: z.string().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** The 406 message is a string; validation messages are a list. */
export const pickupPointRejectedMessage = 'No carrier offering pickup point delivery is available for this address';

// ---- webhooks

const nullableString = z.string().nullable();
const nullableNumber = z.number().nullable();

export const WebhookPayloadSchema = z.looseObject({
  id: z.number(),
  orderId: z.string().min(1),
  orderRef: z.string(),
  status: OrderStatusSchema,
  previousStatus: OrderStatusSchema.nullable(),
  attempt: z.number(),
  barcode: nullableString,
  name: nullableString,
  weight: nullableNumber,
  length: nullableNumber,
  width: nullableNumber,
  height: nullableNumber,
  isBusiness: z.boolean().nullable(),
  mailbox: z.boolean(),
  locationId: nullableNumber,
  orderBundle: z.object({ id: z.number(), bundleId: z.string() }).nullable(),
  deliveryName: nullableString,
  deliveryEmail: nullableString,
  deliveryPhone: nullableString,
  deliveryAddress: nullableString,
  deliveryAddressObject: z
    .object({
      street: z.string(),
      houseNumber: z.string(),
      suffix: z.string(),
      postalCode: z.string(),
      city: z.string(),
      countryCode: z.string(),
    })
    .nullable(),
  deliveryNote: nullableString,
  deliveryDate: nullableString,
  deliveryEta: nullableString,
  trackingUrl: nullableString,
  createdAt: z.string(),
  // The event's time orders statuses: strictly ISO 8601 with its offset (a lenient date parser
  // would turn junk into a date and let a forged event win or lose at random).
  updatedAt: z.iso.datetime({ offset: true, message: 'updatedAt should be an ISO 8601 time such as 2026-11-27T06:00:00Z' }),
  sortedAt: nullableString,
  completedAt: nullableString,
  signee: nullableString,
  signatureImage: nullableString,
  riderNote: nullableString,
  pods: z.array(z.string()),
  neighbourAddress: nullableString,
});
export type WebhookPayload = z.infer<typeof WebhookPayloadSchema>;

/** Payload field names, exactly as the spec lists them (the sandbox sends these and no others). */
export const webhookPayloadFields = Object.keys(WebhookPayloadSchema.shape) as (keyof WebhookPayload)[];
