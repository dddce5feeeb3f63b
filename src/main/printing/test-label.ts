// The "test print": a small ZPL label with the printer's name, the station, the time and a Code 128
// barcode. Its frame spans the 4-inch print width (832 dots) that A6 labels need, so a printer that
// is too narrow shows a missing right edge. Text goes through ^FH hex escapes, so a name with
// ^ or ~ in it cannot break the format.

export interface TestLabelInput {
  printerName: string;
  stationName?: string;
  printedAt: Date;
}

export interface TestLabel {
  zpl: string;
  /** The value encoded in the barcode: scan it to check the scanner and the print together. */
  barcode: string;
}

const WIDTH = 832;
const LENGTH = 600;

export function buildTestLabel(input: TestLabelInput): TestLabel {
  const time = localTimestamp(input.printedAt);
  const barcode = `TEST${time.replace(/\D/g, '')}`;
  const lines = [
    '^XA',
    '^CI28',
    `^PW${WIDTH}`,
    `^LL${LENGTH}`,
    '^LH0,0',
    `^FO8,8^GB${WIDTH - 16},${LENGTH - 16},4^FS`,
    `^FO40,36^A0N,56,56^FH^FD${escapeField('Test print')}^FS`,
    `^FO40,110^A0N,32,32^FB752,2,0,L^FH^FD${escapeField(`Printer: ${input.printerName}`)}^FS`,
    ...(input.stationName ? [`^FO40,186^A0N,32,32^FB752,1,0,L^FH^FD${escapeField(`Station: ${input.stationName}`)}^FS`] : []),
    `^FO40,226^A0N,32,32^FH^FD${escapeField(`Time: ${time}`)}^FS`,
    `^FO40,280^BY2^BCN,120,Y,N,N^FD${barcode}^FS`,
    `^FO40,470^A0N,26,26^FB752,3,0,L^FH^FD${escapeField('If the frame is complete and the barcode scans, this printer is ready for labels.')}^FS`,
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
