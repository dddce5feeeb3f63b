// The few format commands the print engine itself looks at.

const MAX_PRINT_QUANTITY = 99_999_999;

/** ^PQq: how many labels the format prints (1 when absent or 0). */
export function printQuantity(zpl: string): number {
  const match = /\^PQ(\d+)/i.exec(zpl);
  const quantity = match ? Number.parseInt(match[1] ?? '1', 10) : 1;
  return Math.min(MAX_PRINT_QUANTITY, Math.max(1, Number.isFinite(quantity) ? quantity : 1));
}

/** ^LLy: label length in dots, if the format sets it. */
export function labelLength(zpl: string): number | null {
  const match = /\^LL(\d+)/i.exec(zpl);
  if (!match) return null;
  const dots = Number.parseInt(match[1] ?? '', 10);
  return Number.isFinite(dots) && dots > 0 ? dots : null;
}
