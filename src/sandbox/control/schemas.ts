/** Request bodies of the operator control API. */
import { z } from 'zod';
import { OrderStatusSchema, OrientationSchema } from '../../shared/api/schemas';
import { pdfPrintSizes } from '../labels/pdf-options';
import { powerCycleOptionsSchema } from '../printer/virtual-zebra';
import { printerIdentityPatchSchema } from '../printer/printer-identity';

export const StatusMoveSchema = z.object({ status: OrderStatusSchema }).strict();

export const BatchStatusMoveSchema = z
  .object({
    moves: z.array(z.object({ orderId: z.string().min(1), status: OrderStatusSchema }).strict()).min(1).max(100_000),
  })
  .strict();

export const WebhookRegistrationSchema = z
  .object({
    /** Company id (e.g. "noordwind") or its exact name. */
    company: z.string().min(1),
    url: z.url({ protocol: /^https?$/, error: 'url must be an http or https URL' }),
    /** Omit for every status. */
    statuses: z.array(OrderStatusSchema).min(1).optional(),
  })
  .strict();

export const IssueKeySchema = z.object({ companies: z.array(z.string().min(1)).min(1) }).strict();
export const RevokeKeySchema = z.object({ apiKey: z.string().min(1) }).strict();

export const CompanySettingsPatchSchema = z
  .object({ orientation: OrientationSchema.optional(), printSize: z.enum(pdfPrintSizes).optional() })
  .strict()
  .refine((patch) => patch.orientation !== undefined || patch.printSize !== undefined, { message: 'give orientation, printSize or both' });

export const ResetSchema = z.object({ keepWebhooks: z.boolean().optional() }).strict();

export const WaitIdleSchema = z.object({ timeoutMs: z.number().int().min(1).max(600_000).optional() }).strict();

export const PrinterSpeedSchema = z.object({ labelsPerSecond: z.number().positive().max(10_000) }).strict();

/** A label document the sandbox serves for one order from then on, as the carrier made it. */
/**
 * PUT /environments/:env/orders/:orderId/label: a document served as the order's ZPL label.
 * `pdf: false`: the label exists only as ZPL (a carrier that supplies ZPL alone): a PDF request for
 * the order is refused with 400, as the service answers for a format it cannot give.
 */
export const SuppliedLabelSchema = z.object({ format: z.literal('zpl'), base64: z.base64().min(1), pdf: z.boolean().default(true) }).strict();

/** POST /printers/:printer/power-cycle: how long the printer stays off (default 0). */
export const PowerCycleSchema = powerCycleOptionsSchema;

/** PUT /printers/:printer/identity: another printer at the same address. */
export const PrinterIdentitySchema = printerIdentityPatchSchema;
