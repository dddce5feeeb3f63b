import { describe, expect, it } from 'vitest';
import { parseToledoFrame, toledoChecksum, ToledoStreamReader } from '../../../src/shared/scales/toledo-continuous';

const ascii = (text: string) => Uint8Array.from(Buffer.from(text, 'latin1'));
/** A frame as the Toledo manuals lay it out: STX, SWA, SWB, SWC, 6 weight digits, 6 tare digits. */
const frame = (a: number, b: number, c: number, weight: string, tare = '000000') => Uint8Array.from([0x02, a, b, c, ...ascii(weight), ...ascii(tare)]);

// SWA 0x34 = bit 5 set, decimal code 4 (XXXX.XX); SWB 0x30 = bit 5 set, bit 4 kg; SWC 0x20 = bit 5 set.
describe('Toledo continuous output', () => {
  it('reads a steady weight in kg with the decimal point from status word A', () => {
    expect(parseToledoFrame(frame(0x34, 0x30, 0x20, '001250'))).toEqual({ kind: 'weight', grams: 12500, steady: true, net: false, tareGrams: 0 });
    // Decimal code 5 (XXX.XXX): 1.234 kg.
    expect(parseToledoFrame(frame(0x35, 0x30, 0x20, '001234'))).toMatchObject({ grams: 1234 });
    // Status word C bit 0: grams, decimal code 2 (XXXXXX).
    expect(parseToledoFrame(frame(0x32, 0x20, 0x21, '000750'))).toMatchObject({ grams: 750 });
    // Bit 4 of B clear: pounds. 2.00 lb.
    expect(parseToledoFrame(frame(0x34, 0x20, 0x20, '000200'))).toMatchObject({ grams: 907.2 });
  });

  it('says motion, net with tare, overload and negative from status word B', () => {
    expect(parseToledoFrame(frame(0x34, 0x38, 0x20, '000512'))).toMatchObject({ kind: 'weight', grams: 5120, steady: false });
    expect(parseToledoFrame(frame(0x34, 0x31, 0x20, '000512', '000030'))).toMatchObject({ net: true, tareGrams: 300 });
    expect(parseToledoFrame(frame(0x34, 0x34, 0x20, '999999'))).toMatchObject({ kind: 'condition', condition: 'overload' });
    expect(parseToledoFrame(frame(0x34, 0x32, 0x20, '000010'))).toMatchObject({ kind: 'condition', condition: 'negative' });
  });

  it('checks the checksum: the 7-bit sum of every character, STX and CR included, and the checksum is zero', () => {
    const bytes = frame(0x34, 0x30, 0x20, '001250');
    const checksum = toledoChecksum(Uint8Array.from([...bytes, 0x0d]));
    let sum = checksum;
    for (const byte of [...bytes, 0x0d]) sum += byte;
    expect(sum & 0x7f).toBe(0);
    expect(parseToledoFrame(bytes, checksum)).toMatchObject({ grams: 12500 });
    expect(parseToledoFrame(bytes, (checksum + 1) & 0x7f)).toMatchObject({ condition: 'bad-data', detail: 'checksum' });
  });

  it('refuses frames that are not this format', () => {
    expect(parseToledoFrame(frame(0x14, 0x30, 0x20, '001250'))).toMatchObject({ condition: 'bad-data' });
    expect(parseToledoFrame(frame(0x34, 0x30, 0x20, '00A250'))).toMatchObject({ condition: 'bad-data' });
    expect(parseToledoFrame(ascii('ST,GS,+0012.30kg'))).toMatchObject({ condition: 'bad-data' });
  });

  it('finds frames in a stream cut anywhere, skipping noise before STX', () => {
    const reader = new ToledoStreamReader(false);
    const stream = Uint8Array.from([0x41, 0x0a, ...frame(0x34, 0x30, 0x20, '001250'), 0x0d, ...frame(0x34, 0x38, 0x20, '001300'), 0x0d]);
    const samples = [...reader.push(stream.subarray(0, 7)), ...reader.push(stream.subarray(7, 25)), ...reader.push(stream.subarray(25))];
    expect(samples).toEqual([
      { kind: 'weight', grams: 12500, steady: true, net: false, tareGrams: 0 },
      { kind: 'weight', grams: 13000, steady: false, net: false, tareGrams: 0 },
    ]);
  });

  it('with checksums on, a frame whose checksum does not add up is bad data', () => {
    const reader = new ToledoStreamReader(true);
    const good = frame(0x34, 0x30, 0x20, '001250');
    const checksum = toledoChecksum(Uint8Array.from([...good, 0x0d]));
    expect(reader.push(Uint8Array.from([...good, 0x0d, checksum, ...good, 0x0d, checksum ^ 0x01]))).toEqual([
      { kind: 'weight', grams: 12500, steady: true, net: false, tareGrams: 0 },
      { kind: 'condition', condition: 'bad-data', detail: 'checksum' },
    ]);
  });
});
