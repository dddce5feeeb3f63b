/**
 * The handover PDF as the driver reads it: every page headed and numbered, counts in the singular
 * where there is one, and no bundle heading left alone at a page's foot — read back with poppler's
 * pdftotext from a day of bundles of one to four parcels.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { HandoverData } from '../../../src/shared/contract/supervision';
import { handoverPdf } from '../../../src/main/supervision/day-close';

const scratch = mkdtempSync(join(tmpdir(), 'handover-pages-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function dayOfBundles(): HandoverData {
  let n = 0;
  const bundles = Array.from({ length: 24 }, (_, index) => {
    const size = (index % 4) + 1;
    const bundleId = `BND-${String(index).padStart(3, '0')}`;
    const parcels = Array.from({ length: size }, () => {
      n += 1;
      return { orderId: `o-${n}`, orderRef: `NW-${100000 + n}-1`, barcode: `3SPAK${String(n).padStart(8, '0')}`, bundleId, weightGrams: 1200, printedAt: '2026-03-01T08:00:00.000Z', locationId: 1101, secondCopy: null };
    });
    return { bundleId, parcels, weightGrams: 1200 * size };
  });
  return { day: '2026-03-01', environment: 'sandbox', bench: 'Bench 3', location: null, bundles, parcels: n, weightGrams: 1200 * n, setApart: [], toPull: 0, secondCopies: { certain: 0, possible: 0 }, pdfPath: null };
}

describe('the handover PDF', () => {
  it('heads and numbers every page, says "1 parcel", and keeps each bundle heading with its first parcel', async () => {
    const path = join(scratch, 'handover.pdf');
    writeFileSync(path, await handoverPdf(dayOfBundles()));
    const pages = execFileSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' })
      .split('\f')
      .filter((text) => text.trim() !== '');
    expect(pages.length).toBeGreaterThanOrEqual(4);
    const whole = pages.join('\n');
    expect(whole).toContain('Bundle BND-000: 1 parcel, 1.2 kg');
    expect(whole).not.toMatch(/\b1 parcels\b/);
    for (const [index, text] of pages.entries()) {
      const lines = text
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line !== '');
      expect(lines[0], `page ${index + 1}`).toMatch(/^Handover list - Bench 3/);
      expect(lines.at(-1), `page ${index + 1}`).toBe(`Page ${index + 1} of ${pages.length}`);
      expect(lines.at(-2), `page ${index + 1}`).not.toMatch(/^Bundle /);
    }
  });
});
