/**
 * Mettler Toledo MT-SICS (Standard Interface Command Set), level 0 weighing commands, as the
 * MT-SICS reference manuals describe them: the host sends `S` (the next stable weight) or `SI`
 * (the weight now, steady or not), each closed by CR LF; the scale answers one line closed by CR LF:
 *
 *   S S     100.00 g   a stable weight (`S` or `SI`)
 *   S D     100.02 g   a dynamic (moving) weight (`SI` only)
 *   S I                command not executable now (busy, taring, no stability within the timeout)
 *   S +                overload
 *   S -                underload
 *   ES / ET / EL       syntax error / transmission error / logical error (any command)
 *
 * The weight field is right-aligned (10 characters) and the unit follows after a space.
 */
import { condition, type ScaleSample } from './scale-reading';
import { isWeightUnit, toGrams } from './weight-units';

export const mtSicsCommands = {
  /** Send stable weight value. */
  stable: 'S\r\n',
  /** Send weight value immediately. */
  immediate: 'SI\r\n',
} as const;

/** Longest answer line a weighing command gets (ID, status, 10-digit field, unit, with room for spaces). */
export const mtSicsMaxLine = 64;

const weightLine = /^S ([SD]) +(-?\d+(?:\.\d+)?) +([A-Za-z]{1,5})$/;

/** One answer line (without its CR LF) as a sample. */
export function parseMtSicsLine(line: string): ScaleSample {
  const text = line.replace(/\r?\n?$/, '');
  if (text.length > mtSicsMaxLine) return condition('bad-data', `an answer of ${text.length} characters`);
  const match = weightLine.exec(text);
  if (match) {
    const unit = match[3]!;
    if (!isWeightUnit(unit)) return condition('bad-data', `unit ${unit}`);
    const value = Number(match[2]);
    const grams = toGrams(value, unit);
    if (grams < 0) return condition('negative', `${match[2]} ${unit}`);
    return { kind: 'weight', grams, steady: match[1] === 'S', net: false, tareGrams: null };
  }
  const trimmed = text.trim();
  if (trimmed === 'S I') return condition('busy', 'S I');
  if (trimmed === 'S +') return condition('overload', 'S +');
  if (trimmed === 'S -') return condition('negative', 'S -');
  if (trimmed === 'ES' || trimmed === 'ET' || trimmed === 'EL') return condition('fault', trimmed);
  return condition('bad-data', JSON.stringify(text.slice(0, 40)));
}
