import { z } from 'zod';
import { code128Modules, code128QuietZoneModules } from './code128';
import { maxBarcodeModules } from './layout';

/**
 * What a label shows. The sandbox server builds it from an order record; the renderers parse it
 * again so a malformed record gives a clear error instead of a broken document.
 */

// Generous limits: longer values would not fit an A6 label anyway; the renderers shrink and then
// cut text to its box, so these only keep a runaway value from becoming a huge document.
export const barcodeAlphabet = /^[0-9A-Za-z.\-/+]+$/;

const text = (max: number) => z.string().trim().min(1).max(max);

export const labelBundleSchema = z
  .object({
    /** 1-based position of this parcel in its bundle ("2 of 5"). */
    index: z.number().int().min(1).max(9999),
    count: z.number().int().min(1).max(9999),
    bundleId: text(64),
  })
  .refine((bundle) => bundle.index <= bundle.count, {
    message: 'bundle.index must not exceed bundle.count',
    path: ['index'],
  });

export const labelDataSchema = z.object({
  orderId: text(64),
  orderRef: text(128),
  /**
   * Printed as Code 128. Letters, digits and . - / + only: wider than any carrier barcode needs,
   * and free of characters that ZPL (^ ~ _ >) or a scanner's keyboard mapping treat specially.
   */
  barcode: z
    .string()
    .min(1)
    .max(48)
    .regex(barcodeAlphabet, 'barcode may contain only letters A-Z, a-z, digits and . - / +')
    .refine(
      (barcode) => !barcodeAlphabet.test(barcode) || code128Modules(barcode) + 2 * code128QuietZoneModules <= maxBarcodeModules,
      'barcode is too long for a scannable Code 128 on an A6 label',
    ),
  deliveryName: text(200),
  /** The order record's formatted single-line address. */
  deliveryAddress: text(300),
  postalCode: text(16),
  city: z.string().trim().max(100),
  countryCode: z
    .string()
    .regex(/^[A-Za-z]{2}$/, 'countryCode must be an ISO 3166-1 alpha-2 code')
    .transform((code) => code.toUpperCase()),
  senderName: text(200),
  bundle: labelBundleSchema.optional(),
  createdAt: z.iso.datetime({ offset: true }),
  trackingUrl: z.string().max(300).optional(),
});

export type LabelData = z.infer<typeof labelDataSchema>;
/** What callers may pass before parsing (countryCode in any case). */
export type LabelDataInput = z.input<typeof labelDataSchema>;

/** Parses label data, throwing a ZodError that names each bad field. */
export function parseLabelData(input: unknown): LabelData {
  return labelDataSchema.parse(input);
}
