import { describe, expect, it } from 'vitest';
import { checkLabelDocument, checkPdfDocument, checkZplDocument, decodeStrictBase64 } from '../../../src/main/api/label-document';

const b64 = (text: string | Buffer) => (typeof text === 'string' ? Buffer.from(text, 'utf8') : text).toString('base64');
const zplLabel = '^XA^PW812^LL1218^FO50,50^A0N,40,40^FDOrder 1001^FS^XZ';
const pdfBytes = Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n', 'latin1');

describe('strict base64', () => {
  it('decodes canonical base64', () => {
    const result = decodeStrictBase64(b64('hello label'));
    expect(result.ok && Buffer.from(result.document).toString()).toBe('hello label');
  });

  it.each([
    ['empty', ''],
    ['whitespace inside', 'aGVs bG8='],
    ['a line break', 'aGVsbG8g\nbGFiZWw='],
    ['url-safe alphabet', 'a-_b'],
    ['missing padding', 'aGVsbG8'],
    ['padding in the middle', 'aG=sbG8='],
    ['non-canonical trailing bits', 'aGVsbG9='],
    ['a data URI prefix', `data:application/pdf;base64,${b64('x')}`],
  ])('refuses %s', (_name, text) => {
    expect(decodeStrictBase64(text).ok).toBe(false);
  });
});

describe('ZPL documents', () => {
  it('accepts one format and returns its bytes and text', () => {
    const result = checkZplDocument(b64(zplLabel));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.document.zpl).toBe(zplLabel);
    expect(Buffer.from(result.document.bytes).toString('utf8')).toBe(zplLabel);
    expect(result.document.formatCount).toBe(1);
    expect(result.document.format).toBe('zpl');
  });

  it('accepts several formats and surrounding whitespace', () => {
    const result = checkZplDocument(b64(`\r\n  ${zplLabel}\r\n${zplLabel}\n\n ^XA^FDthird^FS^XZ \n`));
    expect(result.ok && result.document.formatCount).toBe(3);
  });

  it('accepts UTF-8 text inside fields', () => {
    expect(checkZplDocument(b64('^XA^CI28^FDZoë Müller – Straße^FS^XZ')).ok).toBe(true);
  });

  it('accepts lower-case command letters', () => {
    expect(checkZplDocument(b64('^xa^FDx^FS^xz')).ok).toBe(true);
  });

  it('accepts what Zebras print: a download before ^XA, an ^XA repeated inside a format, a stray ^XZ, a BOM', () => {
    expect(checkZplDocument(b64('~DGR:LOGO.GRF,2,1,FF00\r\n^XA^FO1,1^XGR:LOGO.GRF^FS^XZ')).ok).toBe(true);
    const repeated = checkZplDocument(b64('^XA^FDa^XA^FDb^XZ'));
    expect(repeated.ok && repeated.document.formatCount).toBe(1);
    expect(checkZplDocument(b64('^XZ^XA^XZ')).ok).toBe(true);
    expect(checkZplDocument(b64(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(zplLabel)]))).ok).toBe(true);
  });

  it('accepts field data in a single-byte code page (^CI27), which is not UTF-8', () => {
    const result = checkZplDocument(b64(Buffer.concat([Buffer.from('^XA^CI27^FD'), Buffer.from([0xeb, 0xfc]), Buffer.from('^FS^XZ')])));
    expect(result.ok && result.document.formatCount).toBe(1);
  });

  it.each([
    ['a truncated label', zplLabel.slice(0, -3), /does not end with \^XZ/],
    ['text that is not ZPL', 'hello printer', /text outside any \^XA…\^XZ format/],
    ['junk before the first format', `junk${zplLabel}`, /text outside any/],
    ['junk after the last format', `${zplLabel}junk`, /text outside any/],
    ['junk between formats', `${zplLabel}junk${zplLabel}`, /text outside any/],
    ['control commands and no format', '~JO~SD30', /no \^XA…\^XZ format/],
    ['a blank document', '   \n', /empty/],
  ])('refuses %s', (_name, text, reason) => {
    const result = checkZplDocument(b64(text));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(reason);
  });

  it('refuses binary bytes outside any download', () => {
    const result = checkZplDocument(b64(Buffer.concat([Buffer.from('^XA^FD'), Buffer.from([0x00, 0x01]), Buffer.from('^FS^XZ')])));
    expect(result).toEqual({ ok: false, reason: 'the ZPL document holds binary data (byte 0x00) outside any graphic or font download, so it is not ZPL text' });
  });

  it('refuses a PDF where ZPL was asked for', () => {
    expect(checkLabelDocument(b64(pdfBytes), 'zpl').ok).toBe(false);
  });
});

describe('PDF documents', () => {
  it('accepts a document from %PDF to %%EOF', () => {
    const result = checkPdfDocument(b64(pdfBytes));
    expect(result.ok).toBe(true);
    if (result.ok) expect(Buffer.from(result.document.bytes).equals(pdfBytes)).toBe(true);
  });

  it('refuses a document that does not start with %PDF', () => {
    const result = checkPdfDocument(b64(`\n${pdfBytes.toString('latin1')}`));
    expect(result).toEqual({ ok: false, reason: 'the document does not start with %PDF' });
  });

  it('refuses a truncated PDF', () => {
    const result = checkPdfDocument(b64(pdfBytes.subarray(0, pdfBytes.length - 8)));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(/truncated/);
  });

  it('refuses ZPL where a PDF was asked for', () => {
    expect(checkLabelDocument(b64(zplLabel), 'pdf').ok).toBe(false);
  });
});
