// The few format commands the print engine itself looks at, read by ZPL's own rules.
import { formatCommands, type FormatCommand } from './format-commands';

const MAX_PRINT_QUANTITY = 99_999_999;

/** The whole number a format command's parameters start with (`^PQ3,…` → 3), or null. */
function leadingNumber(command: FormatCommand | undefined): number | null {
  const digits = /^\d+/.exec(command?.params ?? '')?.[0];
  return digits === undefined ? null : Number.parseInt(digits, 10);
}

const firstCommand = (zpl: string, code: string) => formatCommands(zpl).find((command) => command.prefix === '^' && command.code === code);

/** ^PQq: how many labels the format prints (1 when absent or 0). */
export function printQuantity(zpl: string): number {
  const quantity = leadingNumber(firstCommand(zpl, 'PQ')) ?? 1;
  return Math.min(MAX_PRINT_QUANTITY, Math.max(1, Number.isFinite(quantity) ? quantity : 1));
}

/** ^LLy: label length in dots, if the format sets it. */
export function labelLength(zpl: string): number | null {
  const dots = leadingNumber(firstCommand(zpl, 'LL'));
  return dots !== null && Number.isFinite(dots) && dots > 0 ? dots : null;
}

/** Commands that put something on the label: a format without one only sets things. */
const DRAWING_CODES: ReadonlySet<string> = new Set(['FD', 'FV', 'GB', 'GC', 'GD', 'GE', 'GF', 'GS', 'XG', 'IM', 'IL', 'XF']);

/** Whether the format draws anything (field data, a graphic, a stored image or format). */
export function drawsOnLabel(zpl: string): boolean {
  return formatCommands(zpl).some((command) => command.prefix === '^' && DRAWING_CODES.has(command.code));
}

/** ^JZY / ^JZN: whether a label cut short by a fault is printed again; the format's last one wins, null when it has none. */
export function reprintAfterErrorIn(zpl: string): boolean | null {
  let reprint: boolean | null = null;
  for (const command of formatCommands(zpl)) {
    const choice = command.prefix === '^' && command.code === 'JZ' ? command.params.slice(0, 1).toUpperCase() : '';
    if (choice === 'Y' || choice === 'N') reprint = choice === 'Y';
  }
  return reprint;
}
