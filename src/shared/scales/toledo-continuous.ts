/**
 * Mettler Toledo standard continuous output, as the Toledo terminals' technical manuals describe
 * it (e.g. the WILDCAT Scale Technical Manual, appendix "Continuous Mode Output", tables 6-8 to
 * 6-11), and as many other makers' indicators offer it under "Toledo continuous":
 *
 *   STX SWA SWB SWC  wwwwww  tttttt  CR  [CHK]
 *
 * Six digits of displayed weight and six of tare, without decimal point or sign. Status word A,
 * bits 0-2: where the decimal point is (0 = XXXX00, 1 = XXXXX0, 2 = XXXXXX, 3 = XXXXX.X …
 * 7 = X.XXXXX). Status word B: bit 0 net, bit 1 negative, bit 2 out of range, bit 3 motion,
 * bit 4 kg (else lb). Status word C: bit 0 grams (overrides B's unit). The optional checksum is
 * the two's complement of the 7 low bits of the sum of every character before it, STX and CR
 * included. Bit 7 of every character may carry parity and is ignored.
 */
import { condition, type ScaleSample } from './scale-reading';
import { toGrams, type WeightUnit } from './weight-units';

export const STX = 0x02;
export const CR = 0x0d;
/** STX, three status words, six weight digits, six tare digits: the bytes before CR. */
export const toledoFrameLength = 16;

const decimalFactor = [100, 10, 1, 0.1, 0.01, 0.001, 0.0001, 0.00001] as const;

/** The checksum character the format defines for the bytes before it. */
export function toledoChecksum(bytes: Uint8Array): number {
  let sum = 0;
  for (const byte of bytes) sum += byte & 0x7f;
  return -sum & 0x7f;
}

function digits(bytes: Uint8Array, from: number): number | null {
  let value = 0;
  for (let index = from; index < from + 6; index += 1) {
    const byte = bytes[index]! & 0x7f;
    // Leading zeros may be sent as spaces by some indicators.
    if (byte === 0x20) continue;
    if (byte < 0x30 || byte > 0x39) return null;
    value = value * 10 + (byte - 0x30);
  }
  return value;
}

/**
 * One frame, from STX up to (not including) CR: 16 bytes. `checksum` is the byte after CR when
 * the scale sends one (it is then verified).
 */
export function parseToledoFrame(frame: Uint8Array, checksum?: number): ScaleSample {
  if (frame.length !== toledoFrameLength || (frame[0]! & 0x7f) !== STX) return condition('bad-data', `a frame of ${frame.length} bytes`);
  if (checksum !== undefined) {
    const expected = toledoChecksum(Uint8Array.from([...frame, CR]));
    if ((checksum & 0x7f) !== expected) return condition('bad-data', 'checksum');
  }
  const a = frame[1]! & 0x7f;
  const b = frame[2]! & 0x7f;
  const c = frame[3]! & 0x7f;
  // Bit 5 of status words A, B and C is always 1 in this format: a cheap sanity check.
  if ((a & 0x20) === 0 || (b & 0x20) === 0 || (c & 0x20) === 0) return condition('bad-data', 'status words');
  const weight = digits(frame, 4);
  const tare = digits(frame, 10);
  if (weight === null || tare === null) return condition('bad-data', 'digits');
  if (b & 0x04) return condition('overload', 'out of range');
  const unit: WeightUnit = c & 0x01 ? 'g' : b & 0x10 ? 'kg' : 'lb';
  const factor = decimalFactor[a & 0x07]!;
  const grams = toGrams(weight * factor, unit);
  if (b & 0x02) return condition('negative', `-${grams} g`);
  return { kind: 'weight', grams, steady: (b & 0x08) === 0, net: (b & 0x01) !== 0, tareGrams: toGrams(tare * factor, unit) };
}

/**
 * Reads frames out of a byte stream: bytes before an STX are skipped, a frame is STX + 15 bytes
 * + CR (+ a checksum byte when `withChecksum`). A frame that does not end in CR is bad data and
 * the reader looks for the next STX. The buffer never grows beyond two frames.
 */
export class ToledoStreamReader {
  private buffer: number[] = [];

  constructor(private readonly withChecksum: boolean) {}

  push(chunk: Uint8Array): ScaleSample[] {
    const samples: ScaleSample[] = [];
    const needed = toledoFrameLength + 1 + (this.withChecksum ? 1 : 0);
    for (const byte of chunk) {
      if (this.buffer.length === 0 && (byte & 0x7f) !== STX) continue;
      this.buffer.push(byte);
      if (this.buffer.length < needed) continue;
      const frame = Uint8Array.from(this.buffer.slice(0, toledoFrameLength));
      const end = this.buffer[toledoFrameLength]! & 0x7f;
      samples.push(end === CR ? parseToledoFrame(frame, this.withChecksum ? this.buffer[toledoFrameLength + 1] : undefined) : condition('bad-data', 'no CR after the frame'));
      this.buffer = [];
    }
    return samples;
  }
}
