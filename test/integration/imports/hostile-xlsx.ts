/**
 * Builds hostile XLSX workbooks in the test itself: a shared-strings bomb whose few megabytes
 * inflate to gigabytes of shared text. The runs of one letter are written as hand-made deflate
 * blocks (one literal, then length-258 copies at distance 1, each two bits), so the file takes
 * milliseconds to build and has the ratio of a real bomb; the XML around them is stored as is.
 */
import { zipSync } from 'fflate';
import { crc32 } from 'node:zlib';

/** Writes bits least-significant first, as deflate packs them. */
class BitWriter {
  private readonly bytes: number[] = [];
  private current = 0;
  private used = 0;
  bits(value: number, count: number): void {
    for (let n = 0; n < count; n += 1) this.bit((value >>> n) & 1);
  }
  /** A Huffman code: most significant bit first. */
  code(value: number, length: number): void {
    for (let n = length - 1; n >= 0; n -= 1) this.bit((value >>> n) & 1);
  }
  bit(bit: number): void {
    this.current |= bit << this.used;
    this.used += 1;
    if (this.used === 8) this.flushByte();
  }
  align(): void {
    if (this.used > 0) this.flushByte();
  }
  raw(bytes: Uint8Array): void {
    for (const byte of bytes) this.bytes.push(byte);
  }
  result(): Uint8Array {
    this.align();
    return Uint8Array.from(this.bytes);
  }
  private flushByte(): void {
    this.bytes.push(this.current);
    this.current = 0;
    this.used = 0;
  }
}

function storedBlock(out: BitWriter, bytes: Uint8Array, final: boolean): void {
  out.bits(final ? 1 : 0, 1);
  out.bits(0, 2);
  out.align();
  out.bits(bytes.length, 16);
  out.bits(~bytes.length & 0xffff, 16);
  out.raw(bytes);
}

/**
 * One dynamic-Huffman block holding `letter` once and then `copies` copies of 258 bytes at
 * distance 1: codes are 285 → "0", the letter → "10", end of block → "11", distance 0 → "0".
 */
function runBlock(out: BitWriter, letter: number, copies: number): void {
  out.bits(0, 1); // not final
  out.bits(2, 2); // dynamic Huffman
  out.bits(286 - 257, 5); // HLIT: literal/length codes 0..285
  out.bits(0, 5); // HDIST: one distance code
  out.bits(18 - 4, 4); // HCLEN: code length codes in the order below, up to symbol 1
  const order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1];
  const codeLengthLengths: Record<number, number> = { 1: 2, 2: 2, 17: 2, 18: 2 };
  for (const symbol of order) out.bits(codeLengthLengths[symbol] ?? 0, 3);
  // Code length codes, canonical: 1 → 00, 2 → 01, 17 → 10, 18 → 11.
  const zeros = (count: number) => {
    let left = count;
    while (left >= 11) {
      const run = Math.min(138, left);
      out.code(0b11, 2);
      out.bits(run - 11, 7);
      left -= run;
    }
    if (left >= 3) {
      out.code(0b10, 2);
      out.bits(left - 3, 3);
      left = 0;
    }
    if (left > 0) throw new Error('runs of zeros here are always 3 or more');
  };
  zeros(letter);
  out.code(0b01, 2); // the letter: length 2
  zeros(256 - letter - 1);
  out.code(0b01, 2); // end of block: length 2
  zeros(285 - 257);
  out.code(0b00, 2); // 285: length 1
  out.code(0b00, 2); // the one distance code: length 1
  out.code(0b10, 2); // the letter
  for (let n = 0; n < copies; n += 1) out.code(0b00, 2); // length 258, distance 1
  out.code(0b11, 2); // end of block
}

interface BombOptions {
  strings: number;
  /** Characters in each shared string (rounded to whole copies of 258). */
  stringChars: number;
}

/** A workbook whose sharedStrings.xml holds `strings` strings of `stringChars` letters each. */
export function sharedStringsBomb({ strings, stringChars }: BombOptions): Buffer {
  const encoder = new TextEncoder();
  const copies = Math.floor((stringChars - 1) / 258);
  const chars = 1 + copies * 258;
  const out = new BitWriter();
  const head = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${strings}" uniqueCount="${strings}">`;
  const pieces: Uint8Array[] = [];
  storedBlock(out, encoder.encode(head), false);
  pieces.push(encoder.encode(head));
  for (let n = 0; n < strings; n += 1) {
    storedBlock(out, encoder.encode('<si><t>'), false);
    runBlock(out, 0x41 + (n % 26), copies);
    storedBlock(out, encoder.encode('</t></si>'), false);
  }
  storedBlock(out, encoder.encode('</sst>'), true);
  const compressed = out.result();

  let crc = crc32(encoder.encode(head));
  let size = head.length;
  const run = Buffer.alloc(16 * 1024 * 1024);
  for (let n = 0; n < strings; n += 1) {
    crc = crc32('<si><t>', crc);
    run.fill(0x41 + (n % 26));
    for (let left = chars; left > 0; left -= run.length) crc = crc32(run.subarray(0, Math.min(left, run.length)), crc);
    crc = crc32('</t></si>', crc);
    size += 7 + chars + 9;
  }
  crc = crc32('</sst>', crc);
  size += 6;

  const rows = Array.from({ length: strings }, (_, n) => `<row r="${n + 2}"><c r="A${n + 2}" t="s"><v>${n}</v></c></row>`).join('');
  const sheet = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>orderId</t></is></c></row>${rows}</sheetData></worksheet>`;
  const ordinary = zipSync({ ...workbookParts(), 'xl/worksheets/sheet1.xml': encoder.encode(sheet) });
  return appendEntry(Buffer.from(ordinary), 'xl/sharedStrings.xml', compressed, crc, size);
}

export function workbookParts(): Record<string, Uint8Array> {
  const encoder = new TextEncoder();
  return {
    '[Content_Types].xml': encoder.encode(
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>',
    ),
    '_rels/.rels': encoder.encode(
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
    ),
    'xl/workbook.xml': encoder.encode(
      '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Orders" sheetId="1" r:id="rId1"/></sheets></workbook>',
    ),
    'xl/_rels/workbook.xml.rels': encoder.encode(
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>',
    ),
  };
}

/**
 * Adds one deflated entry to a zip fflate wrote: its local header and data go where the central
 * directory was, and the directory is written again after it. Sizes past 4 GiB use ZIP64 fields.
 */
function appendEntry(zip: Buffer, name: string, data: Uint8Array, crc: number, size: number): Buffer {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = zip.readUInt16LE(end + 10);
  const directorySize = zip.readUInt32LE(end + 12);
  const directoryOffset = zip.readUInt32LE(end + 16);
  const entries = zip.subarray(0, directoryOffset);
  const directory = zip.subarray(directoryOffset, directoryOffset + directorySize);
  const nameBytes = Buffer.from(name);
  const big = size > 0xfffffffe;
  const zip64 = (fields: number[]) => {
    const extra = Buffer.alloc(4 + fields.length * 8);
    extra.writeUInt16LE(1, 0);
    extra.writeUInt16LE(fields.length * 8, 2);
    fields.forEach((value, n) => extra.writeBigUInt64LE(BigInt(value), 4 + n * 8));
    return extra;
  };
  const localExtra = big ? zip64([size, data.length]) : Buffer.alloc(0);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(big ? 45 : 20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(crc >>> 0, 14);
  local.writeUInt32LE(big ? 0xffffffff : data.length, 18);
  local.writeUInt32LE(big ? 0xffffffff : size, 22);
  local.writeUInt16LE(nameBytes.length, 26);
  local.writeUInt16LE(localExtra.length, 28);
  const centralExtra = big ? zip64([size]) : Buffer.alloc(0);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(big ? 45 : 20, 4);
  central.writeUInt16LE(big ? 45 : 20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(crc >>> 0, 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(big ? 0xffffffff : size, 24);
  central.writeUInt16LE(nameBytes.length, 28);
  central.writeUInt16LE(centralExtra.length, 30);
  central.writeUInt32LE(entries.length, 42);
  const newDirectory = Buffer.concat([directory, central, nameBytes, centralExtra]);
  const newOffset = entries.length + local.length + nameBytes.length + localExtra.length + data.length;
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(count + 1, 8);
  eocd.writeUInt16LE(count + 1, 10);
  eocd.writeUInt32LE(newDirectory.length, 12);
  eocd.writeUInt32LE(newOffset, 16);
  return Buffer.concat([entries, local, nameBytes, localExtra, Buffer.from(data), newDirectory, eocd]);
}
