import type { PrinterCheckData } from '../../../../shared/contract/printers';

export { heirOf, roleHolder } from '../../../../shared/printer-roles';

/** Where nothing answered, when a check found the printer not answering; null when it answered (or cannot be asked). */
export function unreachableWhere(check: PrinterCheckData): string | null {
  const warning = check.warnings.find((candidate) => candidate.issue === 'unreachable');
  if (!warning) return null;
  const where = warning.facts?.where;
  return typeof where === 'string' ? where : '';
}
