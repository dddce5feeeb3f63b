// Labels written the way carriers' systems write them (DHL, DPD, GLS, UPS, USPS, FedEx, PostNL,
// Posten…): everything here is valid ZPL that a Zebra prints. Each entry lists the bytes sent
// and the formats a Zebra prints from them, in order.

export interface RealWorldLabel {
  name: string;
  bytes: Buffer;
  /** The formats, ^XA to ^XZ, as bytes the printer prints (one entry per format, not per copy). */
  formats: Buffer[];
  /** Labels that come out: the sum of the formats' ^PQ. */
  labels: number;
}

/** A solid black graphic of `rowBytes` × 8 dots by `rows` dots, as ~DG hex data. */
export const blackGraphicHex = (rowBytes: number, rows: number): string => 'FF'.repeat(rowBytes * rows);

const entry = (name: string, parts: { before?: string; formats: string[]; after?: string; labels?: number; encoding?: BufferEncoding }): RealWorldLabel => {
  const encoding = parts.encoding ?? 'latin1';
  const text = (parts.before ?? '') + parts.formats.join('') + (parts.after ?? '');
  const formats = parts.formats.map((format) => Buffer.from(format, encoding));
  return { name, bytes: Buffer.from(text, encoding), formats, labels: parts.labels ?? parts.formats.length };
};

const body = (carrier: string, extra = ''): string =>
  `^FO40,40^A0N,50,50^FD${carrier}^FS^FO40,120^BY3^BCN,160,Y,N,N^FD3SABC0123456789^FS${extra}`;

const BOM = '\uFEFF';
const gls = `~DGR:GLSLOGO.GRF,${8 * 40},8,${blackGraphicHex(8, 40)}`;
// Two rows of FF, two of 00 via ",", then ":" repeats the last row: 5 rows of 4 bytes.
const compressed = '~DGR:ROWS.GRF,20,4,NF\r\nNF\r\n,:,';
const binaryPng = '\x89PNG^XA~HS^XZ!{}\x00\x7f';

export const realWorldLabels: RealWorldLabel[] = [
  entry('DHL: UTF-8 with a byte order mark', { before: BOM, formats: [`^XA^CI28^PW812^LL1218${body('DHL Paket', '^FO40,400^A0N,30,30^FDGrüße aus Köln^FS')}^XZ`], encoding: 'utf8' }),
  entry('DPD: ~JO before the format', { before: '~JO\r\n', formats: [`^XA^PW812^LL1218${body('DPD Classic')}^XZ`] }),
  entry('GLS: a ~DG logo before ^XA, recalled with ^XG', { before: `${gls}\r\n`, formats: [`^XA^PW812^LL1218^FO600,40^XGR:GLSLOGO.GRF,1,1^FS${body('GLS')}^XZ`] }),
  entry('UPS: ^XA repeated inside the format', { formats: [`^XA^XA^LH0,0^PW812^LL1218${body('UPS Standard')}^XZ`] }),
  entry('USPS: ^XA repeated halfway', { formats: [`^XA^PW812^LL1218${body('USPS Priority')}^XA^FO40,600^A0N,40,40^FDPOSTAGE PAID^FS^XZ`] }),
  entry('FedEx: two formats in one send', { formats: [`^XA^PW812^LL1218${body('FedEx Ground')}^XZ`, `^XA^PW812^LL1218^FO40,40^A0N,40,40^FDFedEx document label^FS^XZ`] }),
  entry('PostNL: printed upside down (^POI)', { formats: [`^XA^POI^PW812^LL1218${body('PostNL')}^XZ`] }),
  entry('Posten: 4×8 in (^PW812 ^LL1624)', { formats: [`^XA^PW812^LL1624${body('Posten Bring', '^FO40,1400^A0N,40,40^FDBottom of a 4x8 label^FS')}^XZ`] }),
  entry('Carrier that persists its darkness: ~SD30^JUS', { formats: [`^XA~SD30^JUS^PW812^LL1218${body('Budbee')}^XZ`] }),
  entry('Tilde settings before ^XA: ~TA ~JS ~SD', { before: '~TA000~JSN~SD25\r\n', formats: [`^XA^MNY^PW812^LL1218${body('Bpost')}^XZ`] }),
  entry('Image as ^GFA hex', { formats: [`^XA^PW812^LL1218^FO50,50^GFA,32,32,4,${'FFFFFFFF00000000'.repeat(4)}^FS${body('Colissimo')}^XZ`] }),
  entry('Image as binary ^GFB holding "^XZ" bytes', { formats: [`^XA^PW812^LL1218^FO50,50^GFB,8,8,2,^XZ~HS\x00\x7f^FS${body('InPost')}^XZ`] }),
  entry('Compressed ~DG before ^XA', { before: compressed, formats: [`^XA^PW812^LL1218^FO40,700^XGR:ROWS.GRF,2,2^FS${body('Hermes')}^XZ`] }),
  entry('Binary ~DY file before ^XA, holding "^XA~HS^XZ"', { before: `~DYR:LOGO,B,P,${binaryPng.length},0,${binaryPng}`, formats: [`^XA^PW812^LL1218${body('Royal Mail')}^XZ`] }),
  entry('Three copies with ^PQ3', { formats: [`^XA^PW812^LL1218${body('Evri')}^PQ3^XZ`], labels: 3 }),
  entry('4×6 with label home and top (^LH ^LT)', { formats: [`^XA^LH20,20^LT30^PW812^LL1218${body('Canada Post')}^XZ`] }),
  entry('A6 with ^FH hex escapes', { formats: [`^XA^CI28^PW832^LL1184^FO40,40^FH^A0N,40,40^FD_C3_A9t_C3_A9^FS${body('Swiss Post')}^XZ`] }),
];
