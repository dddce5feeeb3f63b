/** Options of startSandbox (and so of the CLI), validated with zod. */
import { z } from 'zod';
import { dpiSchema, identityText, odometerSchema, printWidthDotsSchema, serialNumberSchema } from './printer/printer-identity';
import { FaultSettingsSchema, RateLimitSettingsSchema, SettingsSchema, WebhookSettingsSchema } from './settings';

export const seedSizes = {
  small: { orders: 40, pickupPoints: 600 },
  default: { orders: 200, pickupPoints: 4000 },
  large: { orders: 1000, pickupPoints: 12000 },
} as const;
export type SeedSize = keyof typeof seedSizes;

const port = z.number().int().min(0).max(65_535);

export const SandboxOptionsSchema = z
  .object({
    /** Interface every server binds; loopback unless you mean otherwise. */
    host: z.string().min(1).default('127.0.0.1'),
    /** Port of the public API (both environments); 0 picks a free one. */
    port: port.default(0),
    controlPort: port.default(0),
    /** Bearer token of the control API; a random one when omitted. */
    controlToken: z.string().min(16).max(256).optional(),
    /** Seed of every generated value: the same seed gives the same companies, keys, orders and points. */
    seed: z.string().min(1).max(200).default('sandbox'),
    seedSize: z.enum(Object.keys(seedSizes) as [SeedSize, ...SeedSize[]]).default('default'),
    /** Today's orders per environment (overrides seedSize). */
    orders: z.number().int().min(0).max(100_000).optional(),
    /** Pickup points in the network (overrides seedSize). */
    pickupPoints: z.number().int().min(50).max(200_000).optional(),
    /** Virtual Zebra printers to start, each on its own port. */
    printers: z.number().int().min(0).max(32).default(1),
    /** Ports of the printers in order; missing ones are picked free. */
    printerPorts: z.array(port).max(32).default([]),
    /** Print speed of every virtual printer. */
    printerLabelsPerSecond: z.number().positive().max(10_000).optional(),
    /** Resolution of every virtual printer (203, 300, 600); its ~HI model follows unless printerModel is given. */
    printerDpi: dpiSchema.optional(),
    /** Printhead width in dots of every virtual printer (832 for a 4.09 in head at 203 dpi). */
    printerWidthDots: printWidthDotsSchema.optional(),
    /** ~HI model of every virtual printer, e.g. "ZT411-300dpi". */
    printerModel: identityText.optional(),
    /** Serial numbers (device.unique_id) of the printers in order; missing ones are derived from the name. */
    printerSerials: z.array(serialNumberSchema).max(32).default([]),
    /** Label counter of every virtual printer at start. */
    printerOdometerStart: odometerSchema.optional(),
    /** Receive buffer of every virtual printer, bytes. */
    printerReceiveBufferBytes: z.number().int().min(1024).max(256 * 1024 * 1024).optional(),
    faults: FaultSettingsSchema.partial().default({}),
    rateLimit: RateLimitSettingsSchema.partial().default({}),
    webhooks: WebhookSettingsSchema.partial().default({}),
    bodyLimitBytes: SettingsSchema.shape.bodyLimitBytes.optional(),
  })
  .strict();

export type SandboxOptions = z.input<typeof SandboxOptionsSchema>;
export type ResolvedSandboxOptions = z.output<typeof SandboxOptionsSchema>;
