/**
 * Command barcodes: a lead prints these on a card at the bench, so a packer with a parcel in one
 * hand answers the screen with the scanner instead of the keyboard. They are read before a scan
 * is treated as an order, so they never reach the order index.
 */

export const reprintReasons = ['damaged', 'lost', 'wrong-printer', 'other'] as const;
export type ReprintReason = (typeof reprintReasons)[number];

export type ScanCommand =
  | { command: 'reprint'; reason: ReprintReason | null }
  | { command: 'cancel' }
  /** A lead's card: the next parcel scanned is cancelled at the service (after a reason), not printed. */
  | { command: 'void' };

/** The prefix every command barcode starts with; no order ref or parcel barcode does. */
export const commandPrefix = 'STATION:';

const reasonCodes: Record<string, ReprintReason> = {
  DAMAGED: 'damaged',
  LOST: 'lost',
  'WRONG-PRINTER': 'wrong-printer',
  OTHER: 'other',
};

/** The barcode text of each command, for the printable command card and the docs. */
export const commandBarcodes = {
  reprint: `${commandPrefix}REPRINT`,
  cancel: `${commandPrefix}CANCEL`,
  void: `${commandPrefix}VOID`,
  reprintWithReason: (reason: ReprintReason) => `${commandPrefix}REPRINT:${reason.toUpperCase()}`,
} as const;

/** Reads a command barcode; null when the text is not one (then it is an order scan). */
export function parseScanCommand(text: string): ScanCommand | null {
  const upper = text.trim().toUpperCase();
  if (!upper.startsWith(commandPrefix)) return null;
  const parts = upper.slice(commandPrefix.length).split(':');
  const [verb, argument, ...rest] = parts;
  if (rest.length > 0) return null;
  if (verb === 'CANCEL' && argument === undefined) return { command: 'cancel' };
  if (verb === 'VOID' && argument === undefined) return { command: 'void' };
  if (verb === 'REPRINT') {
    if (argument === undefined) return { command: 'reprint', reason: null };
    const reason = reasonCodes[argument];
    return reason ? { command: 'reprint', reason } : null;
  }
  return null;
}

/** Whether text looks like a command barcode, known or not (an unknown one must not be looked up as an order). */
export const isCommandText = (text: string): boolean => text.trim().toUpperCase().startsWith(commandPrefix);
