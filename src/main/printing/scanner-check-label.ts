/**
 * The scanner check barcode (Setup › Scanner) as a label for the bench's printer: the same text
 * as on the screen, in Code 128 (ZPL's ^BC with automatic code sets), for a scanner that reads
 * paper better than a screen. Drawn at the printer's own resolution, as the test label is.
 */
import { SCANNER_CHECK_TEXT } from '../../shared/keyboard/scanner-check';
import { escapeField, stationLabelLayout } from './test-label';

export function buildScannerCheckLabel(input: { stationName?: string; dpi?: number | null }): { zpl: string; barcode: string } {
  const { dots, font, head } = stationLabelLayout(input.dpi);
  const lines = [
    ...head,
    `^FO${dots(40)},${dots(36)}${font(56)}^FH^FD${escapeField('Scanner check')}^FS`,
    ...(input.stationName ? [`^FO${dots(40)},${dots(110)}${font(32)}^FB${dots(752)},1,0,L^FH^FD${escapeField(`Station: ${input.stationName}`)}^FS`] : []),
    // Two dots a bar (0.25 mm): the whole symbol is about 70 mm wide, inside the 4-inch head with its quiet zones.
    `^FO${dots(60)},${dots(180)}^BY${Math.max(1, dots(2))}^BCN,${dots(160)},Y,N,N,A^FD${SCANNER_CHECK_TEXT}^FS`,
    `^FO${dots(40)},${dots(430)}${font(26)}^FB${dots(752)},4,0,L^FH^FD${escapeField('Scan this barcode with the bench scanner. Setup > Scanner on the station says which keyboard layout the scanner types for and whether its scans are read right.')}^FS`,
    '^XZ',
  ];
  return { zpl: `${lines.join('\n')}\n`, barcode: SCANNER_CHECK_TEXT };
}
