import { z } from 'zod';
import { defineCall } from './define';

export const SandboxPrintedLabelSchema = z.object({
  /** Place in the virtual printer's memory, from 0 for the first label since it started. */
  index: z.number().int().nonnegative(),
  /** Epoch milliseconds. */
  printedAt: z.number(),
  zpl: z.string(),
  /** The data of the label's first barcode, what the label is known by on screen; null when it has none. */
  barcode: z.string().nullable(),
});
export type SandboxPrintedLabelData = z.infer<typeof SandboxPrintedLabelSchema>;

export const sandboxCalls = {
  /**
   * What the embedded sandbox's virtual Zebra printed, newest first. Errors: NOT_CONFIGURED when
   * the station is not running on the embedded sandbox.
   */
  'sandbox.printedLabels': defineCall(
    z.object({ limit: z.number().int().min(1).max(200).optional() }).strict(),
    z.object({ labels: z.array(SandboxPrintedLabelSchema) }),
  ),
};
