import { describe, expect, it } from 'vitest';
import { scanZpl, type ZplScan } from '../../../src/shared/zebra/zpl-scanner';

const bytes = (...parts: (string | number[])[]): Uint8Array =>
  Uint8Array.from(Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'utf8') : Buffer.from(part)))));

function scanned(...parts: (string | number[])[]): Extract<ZplScan, { ok: true }> {
  const result = scanZpl(bytes(...parts));
  if (!result.ok) throw new Error(`expected ZPL, got: ${result.reason}`);
  return result;
}

const names = (scan: Extract<ZplScan, { ok: true }>) => scan.commands.map((command) => command.name);

describe('the ZPL scanner', () => {
  it('splits a format into its commands, field data running to the next prefix', () => {
    const scan = scanned('^XA^FO50,60^A0N,30,30^FDName, street 1 - 2/3 "x"^FS^XZ');
    expect(names(scan)).toEqual(['^XA', '^FO', '^A', '^FD', '^FS', '^XZ']);
    expect(scan.commands.find((command) => command.name === '^FD')?.params).toBe('Name, street 1 - 2/3 "x"');
    expect(scan.commands.find((command) => command.name === '^A')?.params).toBe('0N,30,30');
    expect(scan.formats).toHaveLength(1);
  });

  it('tells ^A@ (a font by name) from ^A followed by a font letter', () => {
    expect(names(scanned('^XA^A@N,30,30,E:ARIAL.TTF^FDx^FS^AAN^FDy^FS^XZ'))).toEqual(['^XA', '^A@', '^FD', '^FS', '^A', '^FD', '^FS', '^XZ']);
  });

  it('accepts control commands and a graphic download before the first format', () => {
    const scan = scanned('~JO\r\n~SD25\r\n~DGR:LOGO.GRF,4,1,\r\nFF00\r\nFF00\r\n^XA^FO0,0^XGR:LOGO.GRF,1,1^FS^XZ');
    expect(names(scan)).toEqual(['~JO', '~SD', '~DG', '^XA', '^FO', '^XG', '^FS', '^XZ']);
    expect(scan.commands.filter((command) => command.format === null).map((command) => command.name)).toEqual(['~JO', '~SD', '~DG']);
    expect(scan.formats).toHaveLength(1);
  });

  it('ignores an ^XA repeated inside a format: the format ends at the next ^XZ', () => {
    const scan = scanned('^XA^FDone^FS^XA^FDstill one^FS^XZ^XA^FDtwo^FS^XZ');
    expect(scan.formats).toHaveLength(2);
    expect(scan.commands.filter((command) => command.name === '^FD').map((command) => command.format)).toEqual([0, 0, 1]);
  });

  it('counts every format of a document, blank ones included', () => {
    expect(scanned('^XA^XZ^XA^FDa^FS^XZ\n^XA^FDb^FS^XZ').formats).toHaveLength(3);
  });

  it('skips a UTF-8 byte order mark before the first command', () => {
    expect(scanned([0xef, 0xbb, 0xbf], '^XA^FDx^FS^XZ').commands[0]?.start).toBe(3);
  });

  it('skips exactly the byte count of a binary ^GFB, whatever the payload holds', () => {
    // The payload holds a caret, a tilde, ^XZ and a NUL: all graphic data.
    const scan = scanned('^XA^FO0,0^GFB,8,8,1,', [0x5e, 0x7e, 0x00, 0xff, 0x5e, 0x58, 0x5a, 0x0a], '^FS^XZ');
    expect(names(scan)).toEqual(['^XA', '^FO', '^GF', '^FS', '^XZ']);
    expect(scan.commands[2]?.end).toBe('^XA^FO0,0^GFB,8,8,1,'.length + 8);
  });

  it('skips exactly the byte count of a binary ~DY download (a font) before the first format', () => {
    const scan = scanned('~DYR:MYFONT,B,T,5,0,', [0x00, 0x5e, 0x58, 0x5a, 0x01], '^XA^A@N,20,20,R:MYFONT.TTF^FDx^FS^XZ');
    expect(names(scan)).toEqual(['~DY', '^XA', '^A@', '^FD', '^FS', '^XZ']);
  });

  it('honours a changed delimiter when counting a binary payload', () => {
    const scan = scanned('^XA^CD;^FO0;0^GFB;3;3;1;', [0x2c, 0x5e, 0x2c], '^FS^XZ');
    expect(names(scan)).toEqual(['^XA', '^CD', '^FO', '^GF', '^FS', '^XZ']);
  });

  it('ends an ASCII ^GFA payload at the next prefix, as the printer does', () => {
    const scan = scanned('^XA^FO0,0^GFA,16,16,2,FFFF\nG0H1,\n::^FS^XZ');
    expect(names(scan)).toEqual(['^XA', '^FO', '^GF', '^FS', '^XZ']);
  });

  it('reads a "!" that opens a line of graphic data as data (fill with ones), not as Set-Get-Do', () => {
    expect(names(scanned('^XA^FO0,0^GFA,8,8,2,\n!\n:\nFFFF\n! U\n^FS^XZ'))).toEqual(['^XA', '^FO', '^GF', '^FS', '^XZ']);
  });

  it('follows a changed format prefix (^CC) and control prefix (~CT)', () => {
    const scan = scanned('^XA^CC+~CT#+FDa^b~c+FS#JO+XZ');
    expect(names(scan)).toEqual(['^XA', '^CC', '~CT', '^FD', '^FS', '~JO', '^XZ']);
    expect(scan.commands[3]?.params).toBe('a^b~c');
  });

  it('reads Set-Get-Do lines and their JSON form outside formats', () => {
    const scan = scanned('! U1 getvar "device.uptime"\r\n{}{"odometer.total_label_count":null}\r\n^XA^FDx^FS^XZ');
    expect(names(scan)).toEqual(['! U1 getvar', '{}', '^XA', '^FD', '^FS', '^XZ']);
    expect(scan.commands[0]?.params).toBe(' "device.uptime"');
  });

  it('finds a Set-Get-Do line that follows a control command on the next line', () => {
    expect(names(scanned('~JO\r\n! U1 setvar "ip.addr" "10.0.0.9"\r\n^XA^FDx^FS^XZ'))).toEqual(['~JO', '! U1 setvar', '^XA', '^FD', '^FS', '^XZ']);
  });

  it('keeps UTF-8 and single-byte code page field data as parameters', () => {
    const utf8 = scanned('^XA^CI28^FDZoë Müller – Straße^FS^XZ');
    expect(utf8.formats).toHaveLength(1);
    const cp1252 = scanned('^XA^CI27^FDZo', [0xeb], ' M', [0xfc], 'ller^FS^XZ');
    expect(cp1252.formats).toHaveLength(1);
  });

  it('reports where each command is, so it can be cut out byte-exactly', () => {
    const text = '^XA~SD30^JUS^FDa^FS^XZ';
    const command = scanned(text).commands.find((entry) => entry.name === '^JU');
    expect(text.slice(command?.start, command?.end)).toBe('^JUS');
  });

  it.each([
    ['an empty document', '', /empty/],
    ['blank lines', ' \r\n\t', /empty/],
    ['plain text', 'shopping list', /text outside any \^XA…\^XZ format/],
    ['control commands with no format', '~JO~SD20', /no \^XA…\^XZ format/],
    ['a truncated format', '^XA^FO10,10^FDhalf', /does not end with \^XZ/],
    ['text after the last format', '^XA^FDx^FS^XZ trailing words', /text outside/],
    ['a NUL byte in a format', ['^XA^FD', [0x00], '^FS^XZ'], /binary data \(byte 0x00\)/],
    ['a binary ^GFB shorter than announced', ['^XA^GFB,100,100,10,', [1, 2, 3]], /shorter than the 100 bytes/],
    ['a binary ^GFB with no byte count', '^XA^GFB,,8,1,abc^FS^XZ', /does not say how many bytes/],
    ['a "!" line that is not Set-Get-Do (CPCL)', '! 0 200 200 210 1\r\n^XA^XZ', /text outside any/],
    ['an unfinished JSON command', '{}{"device.reset":\r\n', /does not open a complete JSON/],
    ['a prefix at the very end', '^XA^FDx^FS^XZ^', /middle of a command/],
  ])('refuses %s', (_name, input, reason) => {
    const parts = Array.isArray(input) ? input : [input];
    const result = scanZpl(bytes(...(parts as (string | number[])[])));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(reason);
  });

  it('refuses a command name outside ASCII, even one whose upper case is ASCII letters (ß → SS)', () => {
    const scan = scanZpl(bytes('^XA^FO10,10^', [0xdf], 'D1^FS^XZ'));
    expect(scan).toMatchObject({ ok: false, reason: 'it holds a command name that is not text after a ^ prefix, so it is not ZPL', at: 11 });
  });
});
