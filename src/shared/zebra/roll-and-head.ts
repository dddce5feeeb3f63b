// Whether the roll a Zebra reports fits the service's label, and when its printhead wants
// cleaning. Pure rules; the station reads the numbers from the printer (docs/printing.md).
import type { ExtendedStatus } from './extended-status';
import type { HostStatus } from './host-status';

/** The service's label: A6, 105 × 148 mm (^PW839 ^LL1184 at 203 dpi). */
const A6_LENGTH_MM = 148;
const MM_PER_INCH = 25.4;
/** A 4-inch head prints 832 dots at 203 dpi: the last 0.9 mm of the label fall in its blank margin, as the printer check allows. */
const MIN_WIDTH_DOTS_AT_203 = 832;
/** ^LL of the service's A6 ZPL at 203 dpi. */
const SERVICE_LABEL_LENGTH_DOTS = 1184;
/** A roll measured a little short of 148 mm (a calibration reads the gap to a dot or two) still takes the label. */
const LENGTH_TOLERANCE_MM = 2;

export type RollIssue = 'too-narrow' | 'too-short';

export interface RollFit {
  /** null: the printer did not say enough to tell. */
  fits: boolean | null;
  issues: { issue: RollIssue; printerDots: number; labelDots: number; printerMm: number; labelMm: number }[];
  dpi: number | null;
  printWidthDots: number | null;
  labelLengthDots: number | null;
}

const toMm = (dots: number, dpi: number): number => Math.round(((dots * MM_PER_INCH) / dpi) * 10) / 10;

/** The printer's print width and label length against the A6 label at its resolution. */
export function rollFit(dpi: number | null, printWidthDots: number | null, labelLengthDots: number | null): RollFit {
  const base = { dpi, printWidthDots, labelLengthDots };
  if (dpi === null || dpi <= 0) return { fits: null, issues: [], ...base };
  const issues: RollFit['issues'] = [];
  // The label route's own rule (a width that rounds to 832 dots at 203 dpi fits), so a printer whose
  // labels are sent never has its roll called too narrow: 1229 dots at 300 dpi fit.
  const neededWidth = Math.ceil(((MIN_WIDTH_DOTS_AT_203 - 0.5) * dpi) / 203);
  if (printWidthDots !== null && Math.round((printWidthDots * 203) / dpi) < MIN_WIDTH_DOTS_AT_203) {
    issues.push({ issue: 'too-narrow', printerDots: printWidthDots, labelDots: neededWidth, printerMm: toMm(printWidthDots, dpi), labelMm: toMm(neededWidth, dpi) });
  }
  // The service's own ZPL says ^LL1184 at 203 dpi; at other resolutions the label is its PDF drawn at 148 mm.
  const neededLength = dpi === 203 ? SERVICE_LABEL_LENGTH_DOTS : Math.round((A6_LENGTH_MM * dpi) / MM_PER_INCH);
  const tolerance = Math.round((LENGTH_TOLERANCE_MM * dpi) / MM_PER_INCH);
  if (labelLengthDots !== null && labelLengthDots < neededLength - tolerance) {
    issues.push({ issue: 'too-short', printerDots: labelLengthDots, labelDots: neededLength, printerMm: toMm(labelLengthDots, dpi), labelMm: A6_LENGTH_MM });
  }
  const known = printWidthDots !== null && labelLengthDots !== null;
  return { fits: issues.length > 0 ? false : known ? true : null, issues, ...base };
}

/** One sentence per issue, for logs and the CLI (the screen words them itself). */
export function rollSentences(fit: RollFit): string[] {
  return fit.issues.map((issue) =>
    issue.issue === 'too-narrow'
      ? `The printer prints ${issue.printerDots} dots (${issue.printerMm} mm) wide; the label needs ${issue.labelDots} (${issue.labelMm} mm): its right edge would be cut off.`
      : `The labels on the roll are ${issue.printerDots} dots (${issue.printerMm} mm) long; the label needs ${issue.labelDots} (${issue.labelMm} mm): each label would run over two.`,
  );
}

/**
 * How far a roll goes, for the cleaning reminder: Zebra recommends cleaning the printhead after
 * every roll of direct-thermal labels (every ribbon with thermal transfer), and the printer counts
 * the length since the last cleaning, not rolls. The station takes a roll of 500 A6 labels with a
 * 3 mm gap: 500 × 151 mm = 75.5 m, 2,972 inches.
 */
export const LABELS_PER_ROLL = 500;
export const ROLL_LENGTH_INCHES = Math.round((LABELS_PER_ROLL * (A6_LENGTH_MM + 3)) / MM_PER_INCH);

/** About how many A6 labels (with their gap) a length of media is, for a lead who counts labels, not inches. */
export function a6LabelsIn(inches: number): number {
  return Math.round((inches * LABELS_PER_ROLL) / ROLL_LENGTH_INCHES);
}

export interface HeadCare {
  /** Inches printed since the printhead was last cleaned (odometer.headclean, or ~HQPH's LAST CLEANED). */
  sinceCleanedInches: number | null;
  /** Inches printed on this printhead (odometer.headnew, or ~HQPH's history). */
  headInches: number | null;
  /** Time to clean it: a roll's length since the last cleaning, or the printer's own "clean printhead" warning. */
  cleanNow: boolean;
  /** The printer's own "replace printhead" warning (~HQES). */
  replaceWarning: boolean;
  /** Head faults the printer reports now, by name. */
  faults: HeadFault[];
}

export type HeadFault = 'too-hot' | 'too-cold' | 'element-bad' | 'thermistor-open' | 'not-detected';

/**
 * The head faults a status names: ~HS string 1 (k under temperature, l over temperature) and
 * ~HQES's error flags (printhead over temperature, bad element, thermistor open, not detected).
 */
export function headFaultsOf(host: Pick<HostStatus, 'overTemperature' | 'underTemperature'> | null, extended: Pick<ExtendedStatus, 'errors'> | null): HeadFault[] {
  const flags = extended?.errors.flags ?? [];
  const faults: HeadFault[] = [];
  if (host?.overTemperature || flags.includes('head-over-temperature')) faults.push('too-hot');
  if (host?.underTemperature) faults.push('too-cold');
  if (flags.includes('bad-printhead-element')) faults.push('element-bad');
  if (flags.includes('printhead-thermistor-open')) faults.push('thermistor-open');
  if (flags.includes('printhead-detection-error')) faults.push('not-detected');
  return faults;
}

export function headCare(input: { sinceCleanedInches: number | null; headInches: number | null; cleanWarning: boolean; replaceWarning: boolean; faults: HeadFault[] }): HeadCare {
  const dueByLength = input.sinceCleanedInches !== null && input.sinceCleanedInches >= ROLL_LENGTH_INCHES;
  return {
    sinceCleanedInches: input.sinceCleanedInches,
    headInches: input.headInches,
    cleanNow: dueByLength || input.cleanWarning,
    replaceWarning: input.replaceWarning,
    faults: input.faults,
  };
}
