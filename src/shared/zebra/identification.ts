// ~HI (host identification): one framed string "model,firmware,dots per mm,memory[,options]",
// for example "ZD421-203dpi,V84.20.18Z,8,8176KB".
import { scanFrames } from './framing';
import { ZebraReplyError } from './reply-error';

export interface HostIdentification {
  model: string;
  firmware: string;
  dotsPerMm: number;
  /** Resolution the dots per millimetre stand for (8 → 203, 12 → 300, 24 → 600). */
  dpi: number;
  /** Memory as the printer writes it, e.g. "8176KB". */
  memory: string;
  /** Anything after the memory field (recognised options on some models). */
  options: string[];
}

const WHAT = '~HI';
const knownResolutions: Record<number, number> = { 6: 152, 8: 203, 12: 300, 24: 600 };

/** Dots per inch for a dots-per-millimetre figure, using Zebra's nominal values. */
export function dpiFromDotsPerMm(dotsPerMm: number): number {
  return knownResolutions[dotsPerMm] ?? Math.round(dotsPerMm * 25.4);
}

export function isIdentificationComplete(text: string): boolean {
  return scanFrames(text).frames.length >= 1;
}

/** Parses a complete ~HI answer; throws ZebraReplyError when it is not one. */
export function parseHostIdentification(reply: string): HostIdentification {
  const frame = scanFrames(reply).frames[0];
  if (frame === undefined) throw new ZebraReplyError(WHAT, 'no framed string', reply);
  const fields = frame.split(',').map((field) => field.trim());
  if (fields.length < 4) throw new ZebraReplyError(WHAT, `${fields.length} fields, expected at least 4`, reply);
  const [model = '', firmware = '', dots = '', memory = '', ...options] = fields;
  if (model.length === 0) throw new ZebraReplyError(WHAT, 'the model is empty', reply);
  if (!/^\d{1,3}$/.test(dots) || Number.parseInt(dots, 10) === 0) {
    throw new ZebraReplyError(WHAT, `dots per millimetre is "${dots}", expected a number`, reply);
  }
  const dotsPerMm = Number.parseInt(dots, 10);
  return { model, firmware, dotsPerMm, dpi: dpiFromDotsPerMm(dotsPerMm), memory, options };
}
