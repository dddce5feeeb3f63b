import { describe, expect, it } from 'vitest';
import { decodeBase64, looksLikePdf } from '../../../src/renderer/src/preview/label-format';
import { ZplRenderRequestSchema, ZplRenderResponseSchema } from '../../../src/renderer/src/preview/worker-protocol';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('label documents', () => {
  it('recognise a PDF by its header, even after a few bytes of junk, whatever the file is called', () => {
    expect(looksLikePdf(bytes('%PDF-1.7\n1 0 obj'))).toBe(true);
    expect(looksLikePdf(bytes('\r\n\r\n%PDF-1.4'))).toBe(true);
    expect(looksLikePdf(bytes('^XA^FO50,50^A0N,40,40^FDHello^FS^XZ'))).toBe(false);
    expect(looksLikePdf(bytes(`${' '.repeat(1030)}%PDF-1.4`))).toBe(false);
  });

  it('decode the base64 the Delivery API wraps labels in, and refuse what is not base64', () => {
    const encoded = btoa('^XA^XZ');
    expect(new TextDecoder().decode(decodeBase64(encoded) ?? new Uint8Array())).toBe('^XA^XZ');
    expect(decodeBase64(`${encoded.slice(0, 4)}\n${encoded.slice(4)}`)).not.toBeNull();
    expect(decodeBase64('not base64!')).toBeNull();
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
