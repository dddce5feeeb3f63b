// The "test print": a small ZPL label with the printer's name, the station, the time and a Code 128
// barcode. Its frame spans the 4-inch print width (832 dots) that A6 labels need, so a printer that
// is too narrow shows a missing right edge. Text goes through ^FH hex escapes, so a name with
// ^ or ~ in it cannot break the format. It is drawn at the printer's own resolution: ZPL counts in
// dots, so a 203-dpi layout would come out at 68 % of its size on a 300 dpi printer and hide a
// head too narrow for A6 behind a frame that fits.

export interface TestLabelInput {
  printerName: string;
  stationName?: string;
  printedAt: Date;
  /** The printer's resolution, from its check; 203 dpi (the service's labels) when unknown. */
  dpi?: number | null;
}

export interface TestLabel {
  zpl: string;
  /** The value encoded in the barcode: scan it to check the scanner and the print together. */
  barcode: string;
}

/** The layout's own resolution: the service's labels, and the 4-inch width below, are 203 dpi. */
const LAYOUT_DPI = 203;
const WIDTH = 832;
const LENGTH = 600;

/**
 * A 4-inch label of the station's own (the test print, the scanner check) at the printer's
 * resolution: `dots` turns the 203-dpi layout's dots into the printer's, `font` sizes ^A0 in them,
 * and `head` opens the format (UTF-8, width, length, home).
 */
export function stationLabelLayout(dpi: number | null | undefined): { dots(value: number): number; font(height: number): string; head: string[] } {
  const scale = (dpi ?? LAYOUT_DPI) / LAYOUT_DPI;
  const dots = (value: number): number => Math.round(value * scale);
  const font = (height: number): string => `^A0N,${dots(height)},${dots(height)}`;
  return { dots, font, head: ['^XA', '^CI28', `^PW${dots(WIDTH)}`, `^LL${dots(LENGTH)}`, '^LH0,0'] };
}

export function buildTestLabel(input: TestLabelInput): TestLabel {
  const time = localTimestamp(input.printedAt);
  const barcode = `TEST${time.replace(/\D/g, '')}`;
  const { dots, font, head } = stationLabelLayout(input.dpi);
  const lines = [
    ...head,
    `^FO${dots(8)},${dots(8)}^GB${dots(WIDTH - 16)},${dots(LENGTH - 16)},${dots(4)}^FS`,
    `^FO${dots(40)},${dots(36)}${font(56)}^FH^FD${escapeField('Test print')}^FS`,
    `^FO${dots(40)},${dots(110)}${font(32)}^FB${dots(752)},2,0,L^FH^FD${escapeField(`Printer: ${input.printerName}`)}^FS`,
    ...(input.stationName ? [`^FO${dots(40)},${dots(186)}${font(32)}^FB${dots(752)},1,0,L^FH^FD${escapeField(`Station: ${input.stationName}`)}^FS`] : []),
    `^FO${dots(40)},${dots(226)}${font(32)}^FH^FD${escapeField(`Time: ${time}`)}^FS`,
    `^FO${dots(40)},${dots(280)}^BY${Math.max(1, dots(2))}^BCN,${dots(120)},Y,N,N^FD${barcode}^FS`,
    `^FO${dots(40)},${dots(470)}${font(26)}^FB${dots(752)},3,0,L^FH^FD${escapeField('If the frame is complete and the barcode scans, this printer is ready for labels.')}^FS`,
    '^XZ',
  ];
  return { zpl: `${lines.join('\n')}\n`, barcode };
}

/** Field text for ^FH: ^, ~, _ and everything outside printable ASCII as _XX (UTF-8 bytes, for ^CI28). */
export function escapeField(text: string): string {
  let out = '';
  for (const byte of new TextEncoder().encode(text)) {
    const char = String.fromCharCode(byte);
    out += byte >= 0x20 && byte < 0x7f && char !== '^' && char !== '~' && char !== '_' ? char : `_${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function localTimestamp(date: Date): string {
  const pad = (value: number): string => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}
