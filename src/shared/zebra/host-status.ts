// ~HS (host status return): three framed strings, fields separated by commas, as the ZPL II
// Programming Guide lays them out:
//   string 1  aaa,b,c,dddd,eee,f,g,h,iii,j,k,l
//   string 2  mmm,n,o,p,q,r,s,t,uuuuuuuu,v,www
//   string 3  xxxx,y
// Fields are read by position within their own frame; extra trailing fields (newer firmware) are
// ignored, missing ones reject the answer.
import { scanFrames } from './framing';
import { ZebraReplyError } from './reply-error';

export interface HostStatus {
  // string 1
  /** b: out of paper (media). */
  paperOut: boolean;
  /** c: paused (pause key or ~PP). */
  paused: boolean;
  /** dddd: label length in dots. */
  labelLengthDots: number;
  /** eee: formats received and not yet completely printed, the one printing included. */
  formatsInBuffer: number;
  /** f: the receive buffer is full. */
  bufferFull: boolean;
  /** g: communications diagnostic mode. */
  diagnosticMode: boolean;
  /** h: a format has begun (^XA) and not ended (^XZ). */
  partialFormat: boolean;
  /** j: corrupt RAM (configuration data lost). */
  corruptRam: boolean;
  /** k: printhead under temperature. */
  underTemperature: boolean;
  /** l: printhead over temperature. */
  overTemperature: boolean;
  // string 2
  /** o: printhead open. */
  headOpen: boolean;
  /** p: ribbon out. */
  ribbonOut: boolean;
  /** q: thermal transfer mode (false: direct thermal). */
  thermalTransfer: boolean;
  /** r: print mode. */
  printMode: PrintMode;
  /** t: a label waiting to be taken (peel-off mode). */
  labelWaiting: boolean;
  /** uuuuuuuu: labels of the current batch (^PQ) not yet printed. */
  labelsRemainingInBatch: number;
  /** www: graphic images stored in memory. */
  graphicsStored: number;
}

export type PrintMode =
  | 'rewind'
  | 'peel-off'
  | 'tear-off'
  | 'cutter'
  | 'applicator'
  | 'delayed-cut'
  | 'linerless-peel'
  | 'linerless-rewind'
  | 'partial-cutter'
  | 'rfid'
  | 'kiosk'
  | 'other';

const printModes: Record<string, PrintMode> = {
  '0': 'rewind',
  '1': 'peel-off',
  '2': 'tear-off',
  '3': 'cutter',
  '4': 'applicator',
  '5': 'delayed-cut',
  '6': 'linerless-peel',
  '7': 'linerless-rewind',
  '8': 'partial-cutter',
  '9': 'rfid',
  K: 'kiosk',
};

const WHAT = '~HS';
const FIELDS_1 = 12;
const FIELDS_2 = 11;
const FIELDS_3 = 2;

/** True once the text holds the three ~HS strings. */
export function isHostStatusComplete(text: string): boolean {
  return scanFrames(text).frames.length >= 3;
}

/** Parses a complete ~HS answer; throws ZebraReplyError when it is not one. */
export function parseHostStatus(reply: string): HostStatus {
  const { frames } = scanFrames(reply);
  if (frames.length < 3) {
    throw new ZebraReplyError(WHAT, `expected 3 framed strings, got ${frames.length}`, reply);
  }
  const [one, two, three] = frames.slice(0, 3).map((frame) => frame.split(',').map((field) => field.trim())) as [
    string[],
    string[],
    string[],
  ];
  const fields = new FieldReader(reply);
  fields.expectCount(one, FIELDS_1, 1);
  fields.expectCount(two, FIELDS_2, 2);
  fields.expectCount(three, FIELDS_3, 3);
  const modeField = two[5] ?? '';
  return {
    paperOut: fields.flag(one[1], 'paper out (string 1, field b)'),
    paused: fields.flag(one[2], 'pause (string 1, field c)'),
    labelLengthDots: fields.number(one[3], 'label length (string 1, field dddd)'),
    formatsInBuffer: fields.number(one[4], 'formats in buffer (string 1, field eee)'),
    bufferFull: fields.flag(one[5], 'buffer full (string 1, field f)'),
    diagnosticMode: fields.flag(one[6], 'diagnostic mode (string 1, field g)'),
    partialFormat: fields.flag(one[7], 'partial format (string 1, field h)'),
    corruptRam: fields.flag(one[9], 'corrupt RAM (string 1, field j)'),
    underTemperature: fields.flag(one[10], 'under temperature (string 1, field k)'),
    overTemperature: fields.flag(one[11], 'over temperature (string 1, field l)'),
    headOpen: fields.flag(two[2], 'head open (string 2, field o)'),
    ribbonOut: fields.flag(two[3], 'ribbon out (string 2, field p)'),
    thermalTransfer: fields.flag(two[4], 'thermal transfer (string 2, field q)'),
    printMode: printModes[modeField.toUpperCase()] ?? 'other',
    labelWaiting: fields.flag(two[7], 'label waiting (string 2, field t)'),
    labelsRemainingInBatch: fields.number(two[8], 'labels remaining (string 2, field uuuuuuuu)'),
    graphicsStored: fields.number(two[10], 'graphics stored (string 2, field www)'),
  };
}

class FieldReader {
  constructor(private readonly reply: string) {}

  expectCount(fields: string[], count: number, index: number): void {
    if (fields.length < count) {
      throw new ZebraReplyError(WHAT, `string ${index} has ${fields.length} fields, expected ${count}`, this.reply);
    }
  }

  flag(value: string | undefined, name: string): boolean {
    if (value === '0') return false;
    if (value === '1') return true;
    throw new ZebraReplyError(WHAT, `${name} is "${value ?? ''}", expected 0 or 1`, this.reply);
  }

  number(value: string | undefined, name: string): number {
    if (value === undefined || !/^\d{1,10}$/.test(value)) {
      throw new ZebraReplyError(WHAT, `${name} is "${value ?? ''}", expected digits`, this.reply);
    }
    return Number.parseInt(value, 10);
  }
}
