import { describe, expect, it } from 'vitest';
import { countZplFormats, decodeBase64, detectLabelFormat, zplBarcodeData } from '../../../src/renderer/src/preview/label-format';
import { ZplRenderRequestSchema, ZplRenderResponseSchema } from '../../../src/renderer/src/preview/worker-protocol';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('label documents', () => {
  it('name a ZPL label by its first barcode, as the virtual printer panel lists it', () => {
    // As the sandbox lays a label out: text fields first, then the Code 128 with its own ^BY.
    const zpl = '^XA^CI28^FO40,40^A0N,36,30^FH^FDNW-104249-1^FS^FO40,600^BY3^BCN,200,N,N,N,A^FDDT8617352523164^FS^XZ';
    expect(zplBarcodeData(zpl)).toBe('DT8617352523164');
    expect(zplBarcodeData('^XA^FO10,10^A0N,30,30^FDNo barcode^FS^XZ')).toBeNull();
  });

  it('recognise ZPL and PDF by content, whatever the file is called', () => {
    expect(detectLabelFormat(bytes('^XA^FO50,50^A0N,40,40^FDHello^FS^XZ'))).toBe('zpl');
    expect(detectLabelFormat(bytes('~DGR:LOGO.GRF,4,1,FFFF\n^XA^XGR:LOGO.GRF^FS^XZ'))).toBe('zpl');
    expect(detectLabelFormat(bytes('%PDF-1.7\n1 0 obj'))).toBe('pdf');
    expect(detectLabelFormat(bytes('\r\n\r\n%PDF-1.4'))).toBe('pdf');
    expect(detectLabelFormat(bytes('Hello, this is a letter'))).toBeNull();
    expect(detectLabelFormat(new Uint8Array([0x89, 0x50, 0x4e, 0x47]))).toBeNull();
  });

  it('decode the base64 the Delivery API wraps labels in, and refuse what is not base64', () => {
    const encoded = btoa('^XA^XZ');
    expect(new TextDecoder().decode(decodeBase64(encoded) ?? new Uint8Array())).toBe('^XA^XZ');
    expect(decodeBase64(`${encoded.slice(0, 4)}\n${encoded.slice(4)}`)).not.toBeNull();
    expect(decodeBase64('not base64!')).toBeNull();
  });

  it('count the formats in a ZPL document', () => {
    expect(countZplFormats('^XA^XZ^XA^XZ')).toBe(2);
    expect(countZplFormats('hello')).toBe(0);
  });

  it('parse the preview worker messages, refusing anything else', () => {
    expect(ZplRenderRequestSchema.safeParse({ id: 1, zpl: '^XA^XZ', widthMm: 105, heightMm: 148, dpmm: 8 }).success).toBe(true);
    expect(ZplRenderRequestSchema.safeParse({ id: 1, zpl: '', widthMm: 105, heightMm: 148, dpmm: 8 }).success).toBe(false);
    expect(ZplRenderRequestSchema.safeParse({ id: 1, zpl: '^XA^XZ', widthMm: 105, heightMm: 148, dpmm: 200 }).success).toBe(false);
    expect(ZplRenderResponseSchema.safeParse({ id: 1, ok: true, pngs: ['iVBOR'] }).success).toBe(true);
    expect(ZplRenderResponseSchema.safeParse({ id: 1, ok: false, message: 'bad' }).success).toBe(true);
    expect(ZplRenderResponseSchema.safeParse({ id: 1, ok: true }).success).toBe(false);
  });
});
