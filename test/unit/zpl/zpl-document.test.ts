import { describe, expect, it } from 'vitest';
import { holdsZplFormat, zplBarcodeData } from '../../../src/shared/zebra/zpl-document';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('a ZPL document read as a printer reads it', () => {
  it('is known by its first barcode, as the virtual printer panel lists it', () => {
    // As the sandbox lays a label out: text fields first, then the Code 128 with its own ^BY.
    const zpl = '^XA^CI28^FO40,40^A0N,36,30^FH^FDNW-104249-1^FS^FO40,600^BY3^BCN,200,N,N,N,A^FDDT8617352523164^FS^XZ';
    expect(zplBarcodeData(zpl)).toBe('DT8617352523164');
    expect(zplBarcodeData('^XA^FO10,10^A0N,30,30^FDNo barcode^FS^XZ')).toBeNull();
    // A format with the caret changed (^CC) still names its barcode: read through the tokenizer, not a pattern.
    expect(zplBarcodeData('^XA^CC~~FO40,600~BCN,200,N,N,N,A~FDDT42~FS~XZ')).toBe('DT42');
  });

  it('holds a format whatever the file is called, also after a graphics download, and nothing else does', () => {
    expect(holdsZplFormat(bytes('^XA^FO50,50^A0N,40,40^FDHello^FS^XZ'))).toBe(true);
    expect(holdsZplFormat(bytes('~DGR:LOGO.GRF,4,1,FFFF\n^XA^XGR:LOGO.GRF^FS^XZ'))).toBe(true);
    expect(holdsZplFormat(bytes('Hello, this is a letter'))).toBe(false);
    expect(holdsZplFormat(new Uint8Array([0x89, 0x50, 0x4e, 0x47]))).toBe(false);
  });
});
