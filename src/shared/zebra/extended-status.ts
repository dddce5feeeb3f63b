// ~HQES (host query, extended status): one framed block with an ERRORS and a WARNINGS line, each
// "<present 0|1> <group 2: 8 hex digits> <group 1: 8 hex digits>". The flag tables are the ZPL II
// Programming Guide's; bits it does not name are kept as numbers so nothing is silently dropped.
import { scanFrames } from './framing';
import { ZebraReplyError } from './reply-error';

export type ErrorFlag =
  | 'media-out'
  | 'ribbon-out'
  | 'head-open'
  | 'cutter-fault'
  | 'head-over-temperature'
  | 'motor-over-temperature'
  | 'bad-printhead-element'
  | 'printhead-detection-error'
  | 'invalid-firmware-config'
  | 'printhead-thermistor-open'
  | 'paper-jam-during-retract'
  | 'presenter-not-running'
  | 'paper-feed-error'
  | 'clear-paper-path-failed'
  | 'paused'
  | 'retract-timeout'
  | 'black-mark-calibrate-error'
  | 'black-mark-not-found';

export type WarningFlag = 'calibrate-media' | 'clean-printhead' | 'replace-printhead' | 'paper-near-end';

export const errorFlagBits: Record<ErrorFlag, number> = {
  'media-out': 0x1,
  'ribbon-out': 0x2,
  'head-open': 0x4,
  'cutter-fault': 0x8,
  'head-over-temperature': 0x10,
  'motor-over-temperature': 0x20,
  'bad-printhead-element': 0x40,
  'printhead-detection-error': 0x80,
  'invalid-firmware-config': 0x100,
  'printhead-thermistor-open': 0x200,
  'paper-jam-during-retract': 0x1000,
  'presenter-not-running': 0x2000,
  'paper-feed-error': 0x4000,
  'clear-paper-path-failed': 0x8000,
  paused: 0x10000,
  'retract-timeout': 0x20000,
  'black-mark-calibrate-error': 0x40000,
  'black-mark-not-found': 0x80000,
};

export const warningFlagBits: Record<WarningFlag, number> = {
  'calibrate-media': 0x1,
  'clean-printhead': 0x2,
  'replace-printhead': 0x4,
  'paper-near-end': 0x8,
};

export interface FlagGroup<Flag extends string> {
  /** The leading 0/1: the printer says at least one flag is set. */
  present: boolean;
  group1: number;
  group2: number;
  /** Named flags of group 1 that are set. */
  flags: Flag[];
  /** Set bits of group 1 the guide does not name (0 when none). */
  otherBits: number;
}

export interface ExtendedStatus {
  errors: FlagGroup<ErrorFlag>;
  warnings: FlagGroup<WarningFlag>;
}

const WHAT = '~HQES';
const LINE = (label: string): RegExp => new RegExp(`${label}:\\s*([01])\\s+([0-9A-Fa-f]{8})\\s+([0-9A-Fa-f]{8})`);

/** True once the text holds the framed ~HQES block. */
export function isExtendedStatusComplete(text: string): boolean {
  return scanFrames(text).frames.length >= 1;
}

/** Parses a complete ~HQES answer; throws ZebraReplyError when it is not one. */
export function parseExtendedStatus(reply: string): ExtendedStatus {
  const { frames } = scanFrames(reply);
  const block = frames.find((frame) => frame.includes('ERRORS:'));
  if (block === undefined) {
    throw new ZebraReplyError(WHAT, frames.length === 0 ? 'no framed block' : 'no ERRORS line', reply);
  }
  return {
    errors: readGroup(block, 'ERRORS', errorFlagBits, reply),
    warnings: readGroup(block, 'WARNINGS', warningFlagBits, reply),
  };
}

function readGroup<Flag extends string>(
  block: string,
  label: string,
  table: Record<Flag, number>,
  reply: string,
): FlagGroup<Flag> {
  const match = LINE(label).exec(block);
  if (!match) throw new ZebraReplyError(WHAT, `the ${label} line is missing or malformed`, reply);
  const group2 = Number.parseInt(match[2] ?? '', 16);
  const group1 = Number.parseInt(match[3] ?? '', 16);
  const flags: Flag[] = [];
  let named = 0;
  for (const [flag, bit] of Object.entries(table) as [Flag, number][]) {
    named += bit;
    if (hasBit(group1, bit)) flags.push(flag);
  }
  // Bit arithmetic on numbers up to 2^32 without the sign trouble of 32-bit operators.
  let otherBits = 0;
  for (let bit = 1; bit <= 0x80000000; bit *= 2) {
    if (hasBit(group1, bit) && !hasBit(named, bit)) otherBits += bit;
  }
  return { present: match[1] === '1', group1, group2, flags, otherBits };
}

function hasBit(value: number, bit: number): boolean {
  return Math.floor(value / bit) % 2 === 1;
}
