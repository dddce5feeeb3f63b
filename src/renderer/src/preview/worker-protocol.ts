/**
 * Messages between the screen and the ZPL preview worker. The worker parses what it gets and the
 * screen parses what comes back, as at every other boundary.
 */
import { z } from 'zod';

export const ZplRenderRequestSchema = z.object({
  id: z.number().int().nonnegative(),
  zpl: z.string().min(1).max(20 * 1024 * 1024),
  widthMm: z.number().positive().max(500),
  heightMm: z.number().positive().max(2000),
  dpmm: z.number().int().min(6).max(24),
});
export type ZplRenderRequest = z.infer<typeof ZplRenderRequestSchema>;

export const ZplRenderResponseSchema = z.discriminatedUnion('ok', [
  z.object({
    id: z.number().int().nonnegative(),
    ok: z.literal(true),
    /** One PNG per ^XA…^XZ format, base64. */
    pngs: z.array(z.string().min(1)),
  }),
  z.object({ id: z.number().int().nonnegative(), ok: z.literal(false), message: z.string() }),
]);
export type ZplRenderResponse = z.infer<typeof ZplRenderResponseSchema>;
