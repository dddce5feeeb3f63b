import { describe, expect, it } from 'vitest';
import { ZplStreamParser, type ParserEvent } from '../../../src/sandbox/printer/zpl-stream-parser';

type Seen = { type: 'format'; zpl: string } | { type: 'command'; command: unknown } | { type: 'sgd'; command: unknown } | { type: 'discarded'; byteLength: number };

const describeEvent = (event: ParserEvent): Seen | null => {
  switch (event.type) {
    case 'format':
      return { type: 'format', zpl: event.bytes.toString('latin1') };
    case 'command':
      return { type: 'command', command: event.command };
    case 'sgd':
      return { type: 'sgd', command: event.command };
    case 'format-discarded':
      return { type: 'discarded', byteLength: event.byteLength };
    default:
      return null;
  }
};

/** Feeds the chunks in order, as a socket would deliver them, and lists what the parser saw. */
function read(chunks: Buffer[], parser = new ZplStreamParser({ maxFormatBytes: 1 << 20 })): Seen[] {
  const seen: Seen[] = [];
  for (const chunk of chunks) {
    let rest = chunk;
    while (rest.length > 0) {
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

const STREAM =
  'noise\r\n^XA^FO10,10^FDfirst~HS^FS^XZ~HQES' +
  '^XA^PW832^FDsecond ~DGnot-a-command^FS^XZ\r\n! U1 getvar "device.languages"\r\n' +
  '~HI! U1 setvar "device.friendly_name" "bench 4" ^xa^fdthird^xz~JA';

const EXPECTED: Seen[] = [
  { type: 'command', command: { kind: 'host-status' } },
  { type: 'format', zpl: '^XA^FO10,10^FDfirst^FS^XZ' },
  { type: 'command', command: { kind: 'host-query', query: 'ES' } },
  { type: 'format', zpl: '^XA^PW832^FDsecond ~DGnot-a-command^FS^XZ' },
  { type: 'sgd', command: { kind: 'getvar', name: 'device.languages' } },
  { type: 'command', command: { kind: 'host-identification' } },
  { type: 'sgd', command: { kind: 'setvar', name: 'device.friendly_name', value: 'bench 4' } },
  { type: 'format', zpl: '^xa^fdthird^xz' },
  { type: 'command', command: { kind: 'cancel-all' } },
];

describe('ZplStreamParser', () => {
  it('cuts a stream into formats, immediate commands and SGD commands', () => {
    expect(read([Buffer.from(STREAM, 'latin1')])).toEqual(EXPECTED);
  });

  it('reads the same whichever byte a packet boundary falls on', () => {
    const bytes = Buffer.from(STREAM, 'latin1');
    for (let cut = 1; cut < bytes.length; cut += 1) {
      expect(read([bytes.subarray(0, cut), bytes.subarray(cut)])).toEqual(EXPECTED);
    }
  });

  it('reads the same when every byte arrives on its own', () => {
    const bytes = Buffer.from(STREAM, 'latin1');
    const single = [...bytes].map((byte) => Buffer.from([byte]));
    expect(read(single)).toEqual(EXPECTED);
  });

  it('ends an SGD command at a space as well as at CR/LF', () => {
    expect(read([Buffer.from('! U1 getvar "head.resolution.in_dpi" ! U1 getvar "ezpl.print_width"\n')])).toEqual([
      { type: 'sgd', command: { kind: 'getvar', name: 'head.resolution.in_dpi' } },
      { type: 'sgd', command: { kind: 'getvar', name: 'ezpl.print_width' } },
    ]);
  });

  it('does not let a stray "!" swallow the format after it', () => {
    expect(read([Buffer.from('!!! hello ^XA^FDok^XZ')])).toEqual([{ type: 'format', zpl: '^XA^FDok^XZ' }]);
  });

  it('throws away a format that grows past the limit and reads the next one', () => {
    const parser = new ZplStreamParser({ maxFormatBytes: 100 });
    const huge = `^XA^FD${'x'.repeat(500)}^FS^XZ`;
    const seen = read([Buffer.from(huge + '^XA^FDsmall^XZ')], parser);
    expect(seen).toEqual([
      { type: 'discarded', byteLength: expect.any(Number) },
      { type: 'format', zpl: '^XA^FDsmall^XZ' },
    ]);
    expect((seen[0] as { byteLength: number }).byteLength).toBeGreaterThan(100);
  });

  it('takes no more format bytes than its budget and leaves the rest unread', () => {
    const parser = new ZplStreamParser({ maxFormatBytes: 1 << 20 });
    const input = Buffer.from('^XA^FD0123456789^FS^XZ');
    const first = parser.feed(input, { formatByteBudget: 8 });
    expect(first.consumed).toBe(8);
    expect(parser.inFormat).toBe(true);
    expect(parser.partialBytes).toBe(8);
    expect(parser.feed(input.subarray(8), { formatByteBudget: 0 }).consumed).toBe(0);
    const rest = parser.feed(input.subarray(8));
    expect(rest.consumed).toBe(input.length - 8);
    expect(rest.events).toEqual([{ type: 'format', bytes: input }]);
  });

  it('reads status queries outside a format even with no budget left', () => {
    const parser = new ZplStreamParser({ maxFormatBytes: 1 << 20 });
    const result = parser.feed(Buffer.from('~HS^XA^XZ'), { formatByteBudget: 0 });
    expect(result.events).toEqual([{ type: 'command', command: { kind: 'host-status' } }]);
    expect(parser.feed(Buffer.from('^XA^XZ'), { formatByteBudget: 0 }).consumed).toBe(0);
  });

  it('can stop right after the ^XA of a new format', () => {
    const parser = new ZplStreamParser({ maxFormatBytes: 1 << 20 });
    const result = parser.feed(Buffer.from('junk^XA^FDx^XZ'), { stopAfterFormatStart: true });
    expect(result.consumed).toBe(7);
    expect(result.events).toEqual([{ type: 'format-start' }]);
    expect(parser.partialBytes).toBe(3);
  });

  it('can stop right after the ^XZ that completes a format, also one split across packets', () => {
    const parser = new ZplStreamParser({ maxFormatBytes: 1 << 20 });
    const first = parser.feed(Buffer.from('^XA^FDa^XZ^XA^FDb^XZ'), { stopAfterFormatEnd: true });
    expect(first.consumed).toBe(10);
    expect(first.events).toEqual([{ type: 'format-start' }, { type: 'format', bytes: Buffer.from('^XA^FDa^XZ') }]);
    expect(parser.feed(Buffer.from('^XA^FDc^X'), { stopAfterFormatEnd: true }).consumed).toBe(9);
    const split = parser.feed(Buffer.from('Z^XA^FDd^XZ'), { stopAfterFormatEnd: true });
    expect(split.consumed).toBe(1);
    expect(split.events).toEqual([{ type: 'format', bytes: Buffer.from('^XA^FDc^XZ') }]);
    expect(parser.inFormat).toBe(false);
  });

  it('hands back the format in progress when it is abandoned', () => {
    const parser = new ZplStreamParser({ maxFormatBytes: 1 << 20 });
    parser.feed(Buffer.from('^XA^FDhalf'));
    expect(parser.abandonFormat()?.toString()).toBe('^XA^FDhalf');
    expect(parser.inFormat).toBe(false);
    expect(read([Buffer.from('^FS^XZ^XA^FDnext^XZ')], parser)).toEqual([{ type: 'format', zpl: '^XA^FDnext^XZ' }]);
  });

  it('follows ^CC and ~CT prefix changes, wherever a packet boundary falls', () => {
    // A Zebra keeps the chosen prefixes for the formats after it, until they are changed again.
    const stream = Buffer.from('^XA^CC+ +FO10,10+FDa^b~c+FS+XZ~CT#+XA+FDnext+XZ#HS', 'latin1');
    const expected: Seen[] = [
      { type: 'format', zpl: '^XA^CC+ +FO10,10+FDa^b~c+FS+XZ' },
      { type: 'command', command: { kind: 'tilde', code: 'CT' } },
      { type: 'format', zpl: '+XA+FDnext+XZ' },
      { type: 'command', command: { kind: 'host-status' } },
    ];
    expect(read([stream])).toEqual(expected);
    for (let cut = 1; cut < stream.length; cut += 1) {
      expect(read([stream.subarray(0, cut), stream.subarray(cut)]), `cut at ${cut}`).toEqual(expected);
    }
  });

  it('takes binary ~DY data inside a format as data, "^XZ" bytes included', () => {
    const format = '^XA~DYR:LOGO,B,P,6,0,^XZ~HS^FO0,0^XGR:LOGO^FS^XZ';
    expect(read([Buffer.from(`${format}^XA^FDafter^XZ`, 'latin1')])).toEqual([
      { type: 'format', zpl: format },
      { type: 'format', zpl: '^XA^FDafter^XZ' },
    ]);
  });

  it('survives random bytes and stays bounded', () => {
    let seed = 42;
    const random = (): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const alphabet = Buffer.from('^~!XAZxazHSQE"U1 getvar\r\n\x00\xff', 'latin1');
    const parser = new ZplStreamParser({ maxFormatBytes: 4096 });
    for (let round = 0; round < 200; round += 1) {
      const chunk = Buffer.alloc(1 + Math.floor(random() * 2000));
      for (let i = 0; i < chunk.length; i += 1) chunk[i] = alphabet[Math.floor(random() * alphabet.length)] ?? 0;
      expect(() => read([chunk], parser)).not.toThrow();
      expect(parser.partialBytes).toBeLessThanOrEqual(4096);
    }
  });
});
