/**
 * The cost of the ZPL gate every label passes before a printer (prepareZplForPrinter): a sandbox
 * label as a scan fetches it, every hand-written carrier label of test/fixtures/zpl, and a
 * rasterised A6 page (a 254 KB ^GFA) as a bundle run sends it. Median of the runs, in µs.
 * Run: npx tsx bench/zpl-gate.ts [runs]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderZplLabel } from '../src/sandbox/labels/zpl';
import { prepareZplForPrinter } from '../src/shared/zebra/zpl-prepare';

const runs = Number(process.argv[2] ?? 2000);
const fixtures = join(import.meta.dirname, '..', 'test', 'fixtures', 'zpl');

const sandboxLabel = renderZplLabel(
  {
    orderId: 'SBX-000123',
    orderRef: 'ORD-2024/0001.5',
    barcode: '3SABC1234567',
    deliveryName: 'Sam de Vries',
    deliveryAddress: 'Keizersgracht 123, 1015 CJ Amsterdam',
    postalCode: '1015 CJ',
    city: 'Amsterdam',
    countryCode: 'NL',
    senderName: 'Packing Station Sandbox',
    createdAt: '2025-11-21T08:00:00.000Z',
  },
  'landscape',
);
// An A6 page at 203 dpi (104 bytes × 1221 rows) in plain hex, the largest a bundle page gets.
const rasterPage = `^XA^FO0,0^GFA,126984,126984,104,${'F0'.repeat(126_984)}^FS^XZ`;

const documents: [string, Uint8Array][] = [
  ['sandbox label', new TextEncoder().encode(sandboxLabel)],
  ...readdirSync(fixtures)
    .filter((name) => name.endsWith('.zpl'))
    .map((name): [string, Uint8Array] => [name, new Uint8Array(readFileSync(join(fixtures, name)))]),
  ['A6 ^GFA page', new TextEncoder().encode(rasterPage)],
];

for (const [name, bytes] of documents) {
  const times: number[] = [];
  const count = bytes.length > 100_000 ? Math.max(20, Math.floor(runs / 20)) : runs;
  for (let run = 0; run < count + 50; run += 1) {
    const started = performance.now();
    const result = prepareZplForPrinter(bytes);
    if (run >= 50) times.push(performance.now() - started);
    if (!result.ok) throw new Error(`${name} was refused: ${result.reason}`);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)] ?? 0;
  console.log(`${name.padEnd(32)} ${String(bytes.length).padStart(7)} bytes  ${(median * 1000).toFixed(1).padStart(8)} µs`);
}
