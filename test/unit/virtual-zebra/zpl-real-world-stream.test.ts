// Valid ZPL that real carrier labels contain and Zebra printers print: downloads before ^XA,
// tilde commands outside formats, a BOM, repeated ^XA, binary graphics and JSON SGD.
import { describe, expect, it } from 'vitest';
import { ZplStreamParser, type ParserEvent } from '../../../src/sandbox/printer/zpl-stream-parser';

type Seen =
  | { format: string }
  | { download: string; device: string; name: string; bytes: string }
  | { tilde: string }
  | { darkness: number }
  | { other: unknown };

const describeEvent = (event: ParserEvent): Seen | null => {
  if (event.type === 'format') return { format: event.bytes.toString('latin1') };
  if (event.type === 'format-start') return null;
  if (event.type === 'command') {
    const command = event.command;
    if (command.kind === 'download') {
      const { code, device, name, bytes } = command.download;
      return { download: code, device, name, bytes: bytes.toString('latin1') };
    }
    if (command.kind === 'tilde') return { tilde: command.code };
    if (command.kind === 'darkness') return { darkness: command.value };
    return { other: command };
  }
  if (event.type === 'sgd') return { other: event.command };
  return { other: event.type };
};

function readAll(chunks: Buffer[]): Seen[] {
  const parser = new ZplStreamParser({ maxFormatBytes: 1 << 20 });
  const seen: Seen[] = [];
  for (const chunk of chunks) {
    for (let rest = chunk; rest.length > 0; ) {
      const { consumed, events } = parser.feed(rest);
      for (const event of events) {
        const described = describeEvent(event);
        if (described) seen.push(described);
      }
      expect(consumed).toBeGreaterThan(0);
      rest = rest.subarray(consumed);
    }
  }
  return seen;
}

/** Reads the bytes whole, then cut at every position, then byte by byte: the result must not change. */
function readEveryWay(bytes: Buffer): Seen[] {
  const whole = readAll([bytes]);
  for (let cut = 1; cut < bytes.length; cut += 1) {
    expect(readAll([bytes.subarray(0, cut), bytes.subarray(cut)]), `cut at ${cut}`).toEqual(whole);
  }
  expect(readAll([...bytes].map((byte) => Buffer.from([byte])))).toEqual(whole);
  return whole;
}

const latin1 = (text: string): Buffer => Buffer.from(text, 'latin1');

describe('ZPL stream: what real labels send around their formats', () => {
  it('reads a format after a UTF-8 byte order mark', () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('^XA^CI28^FO10,10^FDGrüße^FS^XZ', 'utf8')]);
    expect(readEveryWay(bytes)).toEqual([{ format: Buffer.from('^XA^CI28^FO10,10^FDGrüße^FS^XZ', 'utf8').toString('latin1') }]);
  });

  it('reads tilde commands before ^XA as commands, with the darkness of ~SD', () => {
    expect(readEveryWay(latin1('~JO~JSN~SD30~TA000\r\n^XA^FDx^FS^XZ'))).toEqual([
      { tilde: 'JO' },
      { tilde: 'JS' },
      { darkness: 30 },
      { tilde: 'TA' },
      { format: '^XA^FDx^FS^XZ' },
    ]);
  });

  it('reads a ~DG graphic of hex data to the length its parameters give', () => {
    const download = '~DGR:LOGO.GRF,8,2,FFFF0000FFFF0000';
    expect(readEveryWay(latin1(`${download}\r\n^XA^FO0,0^XGR:LOGO.GRF,1,1^FS^XZ`))).toEqual([
      { download: 'DG', device: 'R', name: 'LOGO.GRF', bytes: download },
      { format: '^XA^FO0,0^XGR:LOGO.GRF,1,1^FS^XZ' },
    ]);
  });

  it('reads ~DG data to its declared length even when it holds "^" bytes', () => {
    // Two bytes declared: four data characters, whatever they are.
    const download = '~DGR:ODD.GRF,2,2,F^XA';
    expect(readEveryWay(latin1(`${download}^XA^FDok^FS^XZ`))).toEqual([
      { download: 'DG', device: 'R', name: 'ODD.GRF', bytes: download },
      { format: '^XA^FDok^FS^XZ' },
    ]);
  });

  it('reads ~DG data in the ZPL compression scheme (repeat counts, "," fills a row, ":" repeats it)', () => {
    // 4 rows of 2 bytes: JF = FFFF, "," = a row of 0, ":" = that row again, JF = FFFF.
    const download = '~DGE:BARS,8,2,JF,:JF';
    expect(readEveryWay(latin1(`${download}^XA^XGE:BARS.GRF^FS^XZ`))).toEqual([
      { download: 'DG', device: 'E', name: 'BARS.GRF', bytes: download },
      { format: '^XA^XGE:BARS.GRF^FS^XZ' },
    ]);
  });

  it('reads base64 (:Z64:) ~DG data up to the next command', () => {
    const download = '~DGR:Z.GRF,4,1,:Z64:eJz7/x8AAv8B/g==:3C1A';
    expect(readEveryWay(latin1(`${download}^XA^XGR:Z.GRF^FS^XZ`))).toEqual([
      { download: 'DG', device: 'R', name: 'Z.GRF', bytes: download },
      { format: '^XA^XGR:Z.GRF^FS^XZ' },
    ]);
  });

  it('reads binary ~DY data of the given size even when it holds ^XA, ~HS, "!" and "{"', () => {
    const data = '^XA~HS^XZ! U1{}';
    const download = `~DYR:LOGO,B,P,${data.length},0,${data}`;
    expect(readEveryWay(latin1(`${download}^XA^FDok^FS^XZ`))).toEqual([
      { download: 'DY', device: 'R', name: 'LOGO', bytes: download },
      { format: '^XA^FDok^FS^XZ' },
    ]);
  });

  it('ends a format at the first ^XZ when ^XA is repeated inside it, as a Zebra does', () => {
    const format = '^XA^FO10,10^FDone^FS^XA^FO10,60^FDtwo^FS^XZ';
    expect(readEveryWay(latin1(`${format}^XA^POI^PW812^LL1218^FDnext^FS^XZ`))).toEqual([
      { format },
      { format: '^XA^POI^PW812^LL1218^FDnext^FS^XZ' },
    ]);
  });

  it('reads binary ^GF image data of the given size inside a format, "^XZ" bytes included', () => {
    const format = `^XA^FO0,0^GFB,6,6,1,^XZ~HS^FS^XZ`;
    expect(readEveryWay(latin1(`${format}^XA^FDafter^XZ`))).toEqual([{ format }, { format: '^XA^FDafter^XZ' }]);
  });

  it('reads the JSON form of SGD, {}{…}, outside formats', () => {
    expect(readEveryWay(latin1('{}{"device.friendly_name":null}{}{"device.reset":""}^XA^XZ'))).toEqual([
      { other: { kind: 'json', text: '{}{"device.friendly_name":null}', entries: { 'device.friendly_name': null } } },
      { other: { kind: 'json', text: '{}{"device.reset":""}', entries: { 'device.reset': '' } } },
      { format: '^XA^XZ' },
    ]);
  });

  it('always reads on, whatever random downloads, JSON and binary graphics it is fed', () => {
    let seed = 7;
    const random = (): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const pieces = ['~DGR:A.GRF,4,1,', '~DYR:B,B,P,5,0,', ':Z64:', '^GFB,3,3,1,', '~SD', '{}{', '"x":null}', '}', '^XA', '^XZ', 'FF', 'G', ',', ':', '!', '\x00', '~HS', '! U1 getvar "a"\r\n'];
    for (let round = 0; round < 300; round += 1) {
      const text = Array.from({ length: 1 + Math.floor(random() * 40) }, () => pieces[Math.floor(random() * pieces.length)]).join('');
      const bytes = latin1(text);
      const cut = Math.floor(random() * bytes.length);
      // readAll fails the test if a call ever consumes nothing.
      expect(() => readAll([bytes.subarray(0, cut), bytes.subarray(cut)])).not.toThrow();
    }
  });
});
