/**
 * The bench's scale: which one is set up (kept per bench), what devices could be one, and the
 * readings it gives. A reading is pushed as the `scales.reading` event while a scale is set up;
 * only a `stable` one carries a weight the station may send with an order.
 */
import { z } from 'zod';
import { ScaleConditionSchema } from '../scales/scale-reading';
import { defineCall, defineEvent } from './define';

export const SerialProtocolSchema = z.enum(['mt-sics', 'toledo-continuous']);
export type SerialProtocol = z.infer<typeof SerialProtocolSchema>;

/** A serial device path: /dev/ttyUSB0, /dev/serial/by-id/…, COM3. No shell characters. */
export const DevicePathSchema = z
  .string()
  .trim()
  .min(1, 'give the device')
  .max(300)
  .regex(/^(\/[\w./:+-]+|\\\\\.\\COM\d{1,3}|COM\d{1,3})$/i, 'a serial device is a path such as /dev/ttyUSB0 or a port such as COM3');

export const ScaleSettingSchema = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('serial'),
      path: DevicePathSchema,
      protocol: SerialProtocolSchema,
      baudRate: z.union([z.literal(1200), z.literal(2400), z.literal(4800), z.literal(9600), z.literal(19200), z.literal(38400)]),
      dataBits: z.union([z.literal(7), z.literal(8)]),
      parity: z.enum(['none', 'even', 'odd']),
      /** Toledo continuous: the scale sends a checksum character after CR. */
      checksum: z.boolean().default(false),
    })
    .strict(),
  z
    .object({
      kind: z.literal('hid'),
      vendorId: z.number().int().min(0).max(0xffff),
      productId: z.number().int().min(0).max(0xffff),
      /** The OS's path of that device, when there are two of one model; otherwise the first one found. */
      path: z.string().max(500).nullable(),
    })
    .strict(),
]);
export type ScaleSetting = z.infer<typeof ScaleSettingSchema>;

export const ScaleReadingSchema = z.discriminatedUnion('state', [
  z.object({
    state: z.literal('stable'),
    grams: z.number().nonnegative(),
    /** The scale shows zero (nothing on it, or tared to zero). */
    zero: z.boolean(),
    /** A net weight after a tare, with the tare when the scale said it. */
    net: z.boolean(),
    tareGrams: z.number().nullable(),
    at: z.string(),
  }),
  z.object({ state: z.literal('settling'), grams: z.number(), at: z.string() }),
  z.object({ state: z.literal('condition'), condition: ScaleConditionSchema, detail: z.string().max(200), at: z.string() }),
  /** No scale set up on this bench. */
  z.object({ state: z.literal('none') }),
]);
export type ScaleReadingData = z.infer<typeof ScaleReadingSchema>;

export const SerialPortInfoSchema = z.object({
  path: z.string(),
  manufacturer: z.string().nullable(),
  serialNumber: z.string().nullable(),
  vendorId: z.string().nullable(),
  productId: z.string().nullable(),
});

export const HidScaleInfoSchema = z.object({
  vendorId: z.number().int(),
  productId: z.number().int(),
  path: z.string().nullable(),
  manufacturer: z.string().nullable(),
  product: z.string().nullable(),
});

export const scalesCalls = {
  /** Serial ports and HID scales (usage page 0x8D) this computer has, for the setup form. */
  'scales.list': defineCall(z.object({}).strict(), z.object({ serialPorts: z.array(SerialPortInfoSchema), hidScales: z.array(HidScaleInfoSchema) })),
  /** This bench's scale, or null. */
  'scales.get': defineCall(z.object({}).strict(), z.object({ scale: ScaleSettingSchema.nullable() })),
  /** Sets this bench's scale (null: none) and starts reading it; readings follow as `scales.reading` events. */
  'scales.set': defineCall(z.object({ scale: ScaleSettingSchema.nullable() }).strict(), z.object({ scale: ScaleSettingSchema.nullable() })),
  /** What the scale shows now. */
  'scales.current': defineCall(z.object({}).strict(), ScaleReadingSchema),
};

export const scalesEvents = {
  /** What the bench's scale shows, as it changes. */
  'scales.reading': defineEvent(ScaleReadingSchema),
};
