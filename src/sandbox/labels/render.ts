import { z } from 'zod';
import { errorText } from '../../shared/error-text';

/**
 * Turns ZPL into a PNG with zpl-renderer-js (Zebrash compiled to WASM): offline, no Labelary.
 * The library (about 9 MB with its WASM inlined) is imported on first use only, so code that
 * never renders does not pay for loading it.
 */

export const renderZplOptionsSchema = z.object({
  /** Label width across the printhead, mm. Default A6: 105. */
  widthMm: z.number().positive().max(500).default(105),
  /** Label length along the feed, mm. Default A6: 148. */
  heightMm: z.number().positive().max(2000).default(148),
  /** Dots per mm; 8 is a 203 dpi printer, 12 a 300 dpi one. */
  dpmm: z.number().int().min(6).max(24).default(8),
});

export type RenderZplOptions = z.input<typeof renderZplOptionsSchema>;

const pngSignature = [0x89, 0x50, 0x4e, 0x47];

/** Renders the first format of the ZPL to a PNG; rejects with a clear Error when it cannot. */
export async function renderZplToPng(zpl: string, opts: RenderZplOptions = {}): Promise<Buffer> {
  if (typeof zpl !== 'string' || !zpl.includes('^XA')) {
    throw new TypeError('renderZplToPng needs ZPL text containing a ^XA format');
  }
  const options = renderZplOptionsSchema.parse(opts);
  const { zplToBase64Async } = await import('zpl-renderer-js');
  let base64: string;
  try {
    base64 = await zplToBase64Async(zpl, options.widthMm, options.heightMm, options.dpmm);
  } catch (cause) {
    throw new Error(`ZPL could not be rendered: ${errorText(cause)}`, { cause });
  }
  const png = Buffer.from(base64, 'base64');
  if (!pngSignature.every((byte, index) => png[index] === byte)) {
    throw new Error('ZPL renderer returned something other than a PNG');
  }
  return png;
}
