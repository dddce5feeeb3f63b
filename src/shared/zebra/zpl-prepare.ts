/**
 * The one gate every ZPL document passes before it reaches a printer or a preview: one scan that
 * checks it is ZPL, sorts its commands by the table in zpl-commands.ts, removes what would make the
 * label's settings the bench's power-on settings, refuses what would change the printer itself, and
 * reads what the printer and the preview need (formats, label size and offsets).
 */
import { StationError } from '../errors';
import { classifyZplCommand, type ClassifiedCommand } from './zpl-commands';
import { scanZpl, type ZplCommand, type ZplScan } from './zpl-scanner';

/** A format's page as the printer lays it out; each value lasts until changed, so it carries into later formats. */
export interface ZplFormatLayout {
  /** ^PW, in dots; null until a format sets it. */
  printWidthDots: number | null;
  /** ^LL, in dots; null until a format sets it. */
  labelLengthDots: number | null;
  /** ^POI turns the printed label by 180°. */
  inverted: boolean;
  /** ^LH, in dots. */
  home: { x: number; y: number };
  /** ^LT: the whole label moves down (positive) or up by this many dots. */
  topDots: number;
  /** ^MU's format base (150, 200, 300 or 600 dpi): the resolution the label's dots are laid out for; null when it does not say. */
  formatDpi: number | null;
  /** Whether the format puts anything on a label (a field, a box, a graphic); settings-only formats print nothing. */
  draws: boolean;
  /** ^PQ: labels printed from the format. */
  quantity: number;
}

export interface PreparedZpl {
  ok: true;
  /** The document to send: unchanged, except every persisting command (^JUS) cut out. */
  bytes: Uint8Array;
  /** ^XA…^XZ formats the printer will receive (what its "formats in buffer" counts). */
  formats: number;
  /** Labels those formats print (formats that draw something, times their ^PQ quantity). */
  labels: number;
  /** Commands cut out of the bytes, with why. */
  removed: ClassifiedCommand[];
  layouts: ZplFormatLayout[];
}

export interface ZplRefusal {
  ok: false;
  /** 'not-zpl': empty, binary, truncated or without a format; 'changes-printer': class 3 commands found. */
  kind: 'not-zpl' | 'changes-printer';
  /** One sentence, for "… was not printed: <reason>". */
  reason: string;
  /** Each class 3 command found, in the document's order. */
  refused: ClassifiedCommand[];
}

/** The commands formatLayouts reads parameters of; every other command is only looked at by name. */
const layoutCommands = new Set(['^PW', '^LL', '^PO', '^LH', '^LT', '^MU', '^PQ', '^DF']);
const drawingCommands = new Set(['^FD', '^FV', '^GB', '^GC', '^GD', '^GE', '^GF', '^GS', '^XG', '^IM', '^IL', '^XF']);

/** `scan`: the scanner's reading of these very bytes, when the caller has it already (the API client checked them with it). */
export function prepareZplForPrinter(bytes: Uint8Array, scan: ZplScan = scanZpl(bytes)): PreparedZpl | ZplRefusal {
  if (!scan.ok) return { ok: false, kind: 'not-zpl', reason: scan.reason, refused: [] };
  const classified = scan.commands.map(classifyZplCommand);
  const refused = classified.filter((entry) => entry.class === 'changes-printer');
  if (refused.length > 0) {
    return { ok: false, kind: 'changes-printer', reason: `it would change the printer itself: ${refused.map(describeRefused).join('; ')}`, refused };
  }
  const removed = classified.filter((entry) => entry.class === 'persists-settings');
  const layouts = formatLayouts(scan.commands, scan.formats.length);
  const labels = layouts.reduce((sum, layout) => sum + (layout.draws ? layout.quantity : 0), 0);
  return { ok: true, bytes: removed.length === 0 ? bytes : cutOut(bytes, removed.map((entry) => entry.command)), formats: scan.formats.length, labels, removed, layouts };
}

/** The command as the packer reads it: its name and the start of its parameters. */
export function describeZplCommand(command: ZplCommand): string {
  const params = command.params.replace(/[\r\n\t]+/g, ' ').trim();
  if (command.name === '^JU') return `^JU${params.charAt(0).toUpperCase()}`;
  const shown = params.length > 40 ? `${params.slice(0, 40)}…` : params;
  if (command.name.startsWith('!')) return `${command.name} ${shown}`.trim();
  if (command.name === '{}') return shown;
  return shown === '' ? command.name : `${command.name}${shown}`;
}

function describeRefused(entry: ClassifiedCommand): string {
  return `${describeZplCommand(entry.command)} (${entry.reason ?? ''})`;
}

/** The journal's note for what was cut out, e.g. "removed ^JUS: it would save …". */
export function removalNote(removed: readonly ClassifiedCommand[]): string | null {
  if (removed.length === 0) return null;
  const names = [...new Set(removed.map((entry) => describeZplCommand(entry.command)))];
  const reasons = [...new Set(removed.map((entry) => entry.reason ?? ''))];
  return `removed ${names.join(', ')}: it ${reasons.join(' and ')}, which are the bench admin's to set.`;
}

/**
 * The station's error for a refusal: LABEL_REFUSED (with each command) when the label would change
 * the printer, MALFORMED_RESPONSE when it is not ZPL. `subject` names the label, e.g. "The label of order X".
 */
export function zplRefusalError(refusal: ZplRefusal, subject = 'The label'): StationError {
  if (refusal.kind === 'not-zpl') return new StationError('MALFORMED_RESPONSE', `${subject} is damaged: ${refusal.reason}.`);
  return new StationError(
    'LABEL_REFUSED',
    `${subject} was not printed: ${refusal.reason}. These are the bench admin's to change; ask the carrier or the Delivery Service for a label without them.`,
    refusal.refused.map(describeRefused),
  );
}

/** prepareZplForPrinter, throwing the refusal as a StationError. */
export function requireZplForPrinter(bytes: Uint8Array, subject?: string, scan?: ZplScan): PreparedZpl {
  const prepared = prepareZplForPrinter(bytes, scan);
  if (!prepared.ok) throw zplRefusalError(prepared, subject);
  return prepared;
}

/** Removes exactly each command's name and one-letter parameter (`^JUS`: 4 bytes); every other byte stays. */
function cutOut(bytes: Uint8Array, commands: readonly ZplCommand[]): Uint8Array {
  const ranges = commands.map((command) => {
    const letter = command.params.search(/\S/);
    return { start: command.start, end: command.paramsStart + (letter < 0 ? 0 : letter + 1) };
  });
  const kept = bytes.length - ranges.reduce((sum, range) => sum + (range.end - range.start), 0);
  const result = new Uint8Array(kept);
  let from = 0;
  let at = 0;
  for (const range of ranges) {
    result.set(bytes.subarray(from, range.start), at);
    at += range.start - from;
    from = range.end;
  }
  result.set(bytes.subarray(from), at);
  return result;
}

const integer = (text: string | undefined): number | null => {
  const match = /^\s*([+-]?\d+)/.exec(text ?? '');
  return match ? Number(match[1]) : null;
};

function formatLayouts(commands: readonly ZplCommand[], count: number): ZplFormatLayout[] {
  const layouts: ZplFormatLayout[] = [];
  let carried: Omit<ZplFormatLayout, 'draws' | 'quantity'> = { printWidthDots: null, labelLengthDots: null, inverted: false, home: { x: 0, y: 0 }, topDots: 0, formatDpi: null };
  let index = 0;
  let current = { ...carried, draws: false, quantity: 1, stored: false };
  const finish = () => {
    // A format holding ^DF is stored for later, not printed.
    const { stored, ...layout } = current;
    layouts.push({ ...layout, draws: current.draws && !stored, home: { ...current.home } });
    carried = {
      printWidthDots: current.printWidthDots,
      labelLengthDots: current.labelLengthDots,
      inverted: current.inverted,
      home: { ...current.home },
      topDots: current.topDots,
      formatDpi: current.formatDpi,
    };
  };
  for (const command of commands) {
    if (command.format === null) continue;
    while (command.format > index) {
      finish();
      index += 1;
      current = { ...carried, draws: false, quantity: 1, stored: false };
    }
    if (!layoutCommands.has(command.name)) {
      if (drawingCommands.has(command.name)) current.draws = true;
      continue;
    }
    const [first, second] = command.params.split(',', 2);
    switch (command.name) {
      case '^PW':
        current.printWidthDots = integer(first) ?? current.printWidthDots;
        break;
      case '^LL':
        current.labelLengthDots = integer(first) ?? current.labelLengthDots;
        break;
      case '^PO': {
        const orientation = (first ?? '').trim().toUpperCase();
        if (orientation === 'I') current.inverted = true;
        else if (orientation === 'N') current.inverted = false;
        break;
      }
      case '^LH':
        current.home = { x: integer(first) ?? current.home.x, y: integer(second) ?? current.home.y };
        break;
      case '^LT':
        current.topDots = integer(first) ?? current.topDots;
        break;
      case '^MU': {
        const base = integer(second);
        if (base !== null && [150, 200, 300, 600].includes(base)) current.formatDpi = base;
        break;
      }
      case '^PQ':
        current.quantity = Math.max(1, integer(first) ?? 1);
        break;
      case '^DF':
        current.stored = true;
        break;
    }
  }
  if (count > 0) finish();
  return layouts.slice(0, count);
}
