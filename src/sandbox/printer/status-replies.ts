// The exact bytes a Zebra answers to ~HS, ~HQES, ~HI and SGD getvar, following the layouts of
// Zebra's ZPL II Programming Guide (docs/virtual-zebra.md quotes them field by field).

const STX = '\x02';
const ETX = '\x03';
const CRLF = '\r\n';

/** What the status replies report, taken from the printer at the moment of the query. */
export interface StatusSnapshot {
  paperOut: boolean;
  paused: boolean;
  headOpen: boolean;
  ribbonOut: boolean;
  /** dddd of ~HS string 1: label length in dots (last ^LL printed, or the configured length). */
  labelLengthDots: number;
  /** eee of ~HS string 1: formats received and not yet completely printed. */
  formatsInBuffer: number;
  /** f of ~HS string 1: the receive buffer is full and the printer has stopped reading. */
  bufferFull: boolean;
  /** h of ~HS string 1: a format has begun (^XA) and not yet ended (^XZ). */
  partialFormat: boolean;
  /** uuuuuuuu of ~HS string 2: labels of the current ^PQ batch not yet printed. */
  labelsRemainingInBatch: number;
  thermalTransfer: boolean;
  /** ~HS l, ~HQES 0x10: the printhead is too hot. */
  headTooHot: boolean;
  /** ~HS k: the printhead is too cold (under temperature). */
  headTooCold: boolean;
  /** ~HQES 0x40: a printhead element is bad. */
  headElementBad: boolean;
}

export interface PrinterIdentity {
  model: string;
  firmware: string;
  dpi: number;
  memoryKb: number;
}

const flag = (value: boolean): string => (value ? '1' : '0');

const digits = (value: number, width: number): string => {
  const max = 10 ** width - 1;
  return String(Math.max(0, Math.min(max, Math.trunc(value)))).padStart(width, '0');
};

// "030": 9600 baud, 8 data bits, 1 stop bit, no parity, Xon/Xoff — what a network Zebra reports
// for its (unused) serial port.
const COMMUNICATION_SETTINGS = '030';
// "001": function settings as a ZD-series Zebra in tear-off mode reports them.
const FUNCTION_SETTINGS = '001';
const PRINT_MODE_TEAR_OFF = '2';
const PRINT_WIDTH_MODE = '6';
const PASSWORD = '1234';

/** The three ~HS strings without their STX/ETX framing, in order. */
export function hostStatusFields(status: StatusSnapshot): [string, string, string] {
  const string1 = [
    COMMUNICATION_SETTINGS,
    flag(status.paperOut),
    flag(status.paused),
    digits(status.labelLengthDots, 4),
    digits(status.formatsInBuffer, 3),
    flag(status.bufferFull),
    '0', // communications diagnostic mode
    flag(status.partialFormat),
    '000', // unused
    '0', // corrupt RAM
    flag(status.headTooCold), // under temperature
    flag(status.headTooHot), // over temperature
  ].join(',');
  const string2 = [
    FUNCTION_SETTINGS,
    '0', // unused
    flag(status.headOpen),
    flag(status.ribbonOut),
    flag(status.thermalTransfer),
    PRINT_MODE_TEAR_OFF,
    PRINT_WIDTH_MODE,
    '0', // label waiting (peel-off mode only)
    digits(status.labelsRemainingInBatch, 8),
    '1', // format while printing: always 1
    '000', // graphic images stored in memory
  ].join(',');
  const string3 = [PASSWORD, '0'].join(','); // password, static RAM not installed
  return [string1, string2, string3];
}

/** The ~HS answer: three strings, each <STX>…<ETX><CR><LF>. */
export function hostStatusReply(status: StatusSnapshot): string {
  return hostStatusFields(status)
    .map((line) => `${STX}${line}${ETX}${CRLF}`)
    .join('');
}

/** Group 1 error bits of ~HQES, as the guide's error flag table defines them. */
export const HQES_ERROR_BITS = {
  mediaOut: 0x1,
  ribbonOut: 0x2,
  headOpen: 0x4,
  headOverTemperature: 0x10,
  badPrintheadElement: 0x40,
} as const;

/** The ~HQES answer: PRINTER STATUS with the ERRORS and WARNINGS lines. */
export function extendedStatusReply(status: StatusSnapshot): string {
  let group1 = 0;
  if (status.paperOut) group1 |= HQES_ERROR_BITS.mediaOut;
  if (status.ribbonOut) group1 |= HQES_ERROR_BITS.ribbonOut;
  if (status.headOpen) group1 |= HQES_ERROR_BITS.headOpen;
  if (status.headTooHot) group1 |= HQES_ERROR_BITS.headOverTemperature;
  if (status.headElementBad) group1 |= HQES_ERROR_BITS.badPrintheadElement;
  const hex = (value: number): string => value.toString(16).toUpperCase().padStart(8, '0');
  const errors = `${group1 !== 0 ? '1' : '0'} ${hex(0)} ${hex(group1)}`;
  const warnings = `0 ${hex(0)} ${hex(0)}`;
  return [
    STX,
    CRLF,
    CRLF,
    '  PRINTER STATUS',
    CRLF,
    `   ERRORS:         ${errors}`,
    CRLF,
    `   WARNINGS:       ${warnings}`,
    CRLF,
    ETX,
  ].join('');
}

/** Dots per millimetre as ~HI reports them: 8 for 203 dpi, 12 for 300 dpi, 24 for 600 dpi. */
export const dotsPerMillimetre = (dpi: number): number => Math.round(dpi / 25.4);

/** The ~HI answer: <STX>model,firmware,dots per mm,memory<ETX><CR><LF>. */
export function identificationReply(identity: PrinterIdentity): string {
  return `${STX}${identity.model},${identity.firmware},${dotsPerMillimetre(identity.dpi)},${identity.memoryKb}KB${ETX}${CRLF}`;
}

/** An SGD getvar answer: the value in double quotes, with no line ending, as a Zebra sends it. */
export function sgdReply(value: string): string {
  return `"${value}"`;
}

/** device.host_status: the three ~HS strings without framing, CR/LF after the first two. */
export function hostStatusSgdValue(status: StatusSnapshot): string {
  return hostStatusFields(status).join(CRLF);
}

/** A ~HQ answer: a framed block of lines, each ended by CR LF, as the guide's ~HQ examples lay them out. */
function hostQueryBlock(lines: string[]): string {
  return `${STX}${CRLF}${lines.map((line) => `${line}${CRLF}`).join('')}${ETX}`;
}

const inches = (dots: number, dpi: number): number => Math.floor(dots / dpi);

/** ~HQOD: the print meters, in inches (the units ^MA sets; inches are its default). */
export function odometerReply(totalDots: number, dpi: number): string {
  const total = `${inches(totalDots, dpi)} "`;
  return hostQueryBlock(['  PRINT METERS', `   TOTAL NONRESETTABLE:       ${total}`, `   USER RESETTABLE CNTR1:     ${total}`, `   USER RESETTABLE CNTR2:     ${total}`]);
}

/** ~HQPH: the printhead's life history: the distance since it was last cleaned, and since it was new. */
export function printheadLifeReply(headCleanDots: number, headNewDots: number, dpi: number): string {
  return hostQueryBlock([`  LAST CLEANED:  ${inches(headCleanDots, dpi)} "`, '  HEAD LIFE HISTORY', '  #   DISTANCE', `  1:  ${inches(headNewDots, dpi)} "`]);
}

/** What ^HH echoes: the configuration label's lines, value first and name after, as the guide's example shows them. */
export interface ConfigurationText {
  darkness: number;
  speedIps: number;
  mediaTracking: 'gap' | 'mark' | 'continuous';
  printMethod: 'thermal transfer' | 'direct thermal';
  printWidthDots: number;
  labelLengthDots: number;
  reprintAfterError: boolean;
  firmware: string;
  totalDots: number;
  headCleanDots: number;
  dpi: number;
}

/** The configuration label as text: ^HH's answer, and what ~WC prints. */
export function configurationLines(c: ConfigurationText): string[] {
  const pad = (value: string): string => value.padEnd(16, ' ');
  return [
    `${pad(c.darkness.toFixed(1))}DARKNESS`,
    `${pad(`${c.speedIps.toFixed(1)} IPS`)}PRINT SPEED`,
    `${pad('+000')}TEAR OFF ADJUST`,
    `${pad('TEAR OFF')}PRINT MODE`,
    `${pad(c.mediaTracking === 'continuous' ? 'CONTINUOUS' : 'NON-CONTINUOUS')}MEDIA TYPE`,
    `${pad(c.mediaTracking === 'mark' ? 'MARK' : 'WEB')}SENSOR TYPE`,
    `${pad(c.printMethod === 'thermal transfer' ? 'THERMAL-TRANS.' : 'DIRECT-THERMAL')}PRINT METHOD`,
    `${pad(String(c.printWidthDots).padStart(4, '0'))}PRINT WIDTH`,
    `${pad(String(c.labelLengthDots).padStart(4, '0'))}LABEL LENGTH`,
    `${pad(c.reprintAfterError ? 'ENABLED' : 'DISABLED')}REPRINT MODE`,
    `${pad(c.firmware)}FIRMWARE`,
    `${pad(`${inches(c.totalDots, c.dpi)} IN`)}NONRESET CNTR`,
    `${pad(`${inches(c.headCleanDots, c.dpi)} IN`)}LAST CLEANED`,
  ];
}

/** ^HH: the configuration label's lines in one framed answer. */
export function configurationReply(c: ConfigurationText): string {
  return `${STX}${configurationLines(c).map((line) => `${line}${CRLF}`).join('')}${ETX}`;
}
