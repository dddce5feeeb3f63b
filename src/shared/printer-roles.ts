/**
 * Who prints what on a bench: the rules the station and its screen share, so the screen can say
 * beforehand what adding or removing a printer will do.
 */
export interface PrinterWithRoles {
  id: string;
  defaultForSingle: boolean;
  defaultForBundles: boolean;
}

export type PrinterRoleName = 'single' | 'bundles';

/** The printer that prints a role today: the one chosen for it, or the only printer (which prints everything). */
export function roleHolder<T extends PrinterWithRoles>(printers: readonly T[], role: PrinterRoleName): T | null {
  const chosen = printers.find((printer) => (role === 'single' ? printer.defaultForSingle : printer.defaultForBundles));
  if (chosen) return chosen;
  return printers.length === 1 ? (printers[0] ?? null) : null;
}

/** The printer that takes a removed printer's roles: the longest-standing one left (lists are oldest first). */
export function heirOf<T extends PrinterWithRoles>(printers: readonly T[], removedId: string): T | null {
  return printers.find((printer) => printer.id !== removedId) ?? null;
}
