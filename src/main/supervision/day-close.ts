/**
 * Closing the day: the handover list for the courier's driver. Every parcel this station sent
 * to a printer on the day (local time) and not voided, grouped by bundle, with counts, weights
 * (the service's, as a webhook told it, else the one the station created the order with) and each
 * parcel's barcode as Code 128, so the driver can scan the sheet. Parcels voided from this
 * station, cancelled by the service, or with an open pull notice are listed apart, as text only:
 * nothing on the sheet for them can be scanned onto the van.
 * The PDF (A4) is kept in the data folder under handover/; a second close of the same day is kept
 * beside the first (`…-2.pdf`), never over it: the driver may already hold the first.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PDFFont, PDFPage } from 'pdf-lib';
import { z } from 'zod';
import type { Environment } from '../../shared/contract/app';
import type { HandoverData } from '../../shared/contract/supervision';
import type { OrderIndex } from '../orders/order-index';
import { localDayBounds } from '../orders/order-overview';
import type { StoreEngine } from '../store';
import type { CreatedWeights } from '../shipping/created-weights';
import type { PullNotices } from './pull-notices';
import type { StatusTimeline } from './status-timeline';

type Parcel = HandoverData['bundles'][number]['parcels'][number];

const PrintedRowSchema = z.object({
  orderId: z.string(),
  printedAt: z.string(),
  voidedAt: z.string().nullable(),
  secondCopy: z.enum(['certain', 'possible']).nullable().catch(null),
});

export interface DayCloseDeps {
  /** The store holding the print journal (the bench's file, or a warehouse's shared store). */
  engine: StoreEngine;
  index: OrderIndex;
  timeline: StatusTimeline;
  notices: PullNotices;
  weights: CreatedWeights;
  dataDir: string;
  benchName(): string;
}

export interface DayClose {
  handover(environment: Environment, options: { day: string; location?: number; pdf: boolean }): Promise<HandoverData>;
}

/** Statuses after which a parcel must not go on the van, whatever the station printed. */
const notForTheVan = new Set(['cancelled', 'rejected', 'address_not_found', 'error']);

export function createDayClose(deps: DayCloseDeps): DayClose {
  // The latest label of each order sent to a printer in the window (a reprint is the same parcel).
  // 'certain' sorts before 'possible': min() says certain when any label of the order came out twice for certain.
  const printedSql = `SELECT order_id AS "orderId", max(coalesce(printed_at, sent_at)) AS "printedAt", max(voided_at) AS "voidedAt", min(second_copy) AS "secondCopy"
     FROM print_journal
     WHERE environment = $1 AND order_id IS NOT NULL AND state IN ('sent', 'printed') AND coalesce(printed_at, sent_at) >= $2 AND coalesce(printed_at, sent_at) < $3
     GROUP BY order_id ORDER BY min(coalesce(printed_at, sent_at)), order_id`;
  return {
    async handover(environment, options) {
      const { start, end } = localDayBounds(options.day);
      const bundles = new Map<string | null, Parcel[]>();
      const setApart: HandoverData['setApart'] = [];
      const rows = (await deps.engine.query(printedSql, [environment, start.toISOString(), end.toISOString()])).map((record) => PrintedRowSchema.parse(record));
      const orders = await deps.index.getMany(environment, rows.map((row) => row.orderId));
      const createdWith = await deps.weights.of(environment, rows.map((row) => row.orderId));
      for (const row of rows) {
        const order = orders.get(row.orderId);
        const facts = await deps.timeline.facts(environment, row.orderId);
        if (options.location !== undefined && facts.locationId !== options.location) continue;
        const parcel: Parcel = {
          orderId: row.orderId,
          orderRef: order?.orderRef ?? null,
          barcode: order?.barcode ?? null,
          bundleId: order?.bundleId ?? null,
          weightGrams: facts.weightGrams ?? createdWith.get(row.orderId) ?? null,
          printedAt: row.printedAt,
          locationId: facts.locationId,
          secondCopy: row.secondCopy,
        };
        const openNotice = (await deps.notices.ofOrder(environment, row.orderId)).find((notice) => notice.acknowledged === null);
        const apart: Pick<HandoverData['setApart'][number], 'kind' | 'why'> | null = order?.voided
          ? { kind: 'voided', why: `voided by ${order.voided.by}: ${order.voided.reason}` }
          : row.voidedAt !== null
            ? { kind: 'voided', why: 'label voided' }
            : openNotice
              ? { kind: 'pull', why: `pull: ${openNotice.status}` }
              : order?.status && notForTheVan.has(order.status)
                ? { kind: 'closed', why: `status ${order.status}` }
                : null;
        if (apart) {
          setApart.push({ ...parcel, ...apart });
          continue;
        }
        bundles.set(parcel.bundleId, [...(bundles.get(parcel.bundleId) ?? []), parcel]);
      }
      const grouped = [...bundles].map(([bundleId, parcels]) => ({ bundleId, parcels, weightGrams: sumWeights(parcels) }));
      const all = grouped.flatMap((group) => group.parcels);
      const handover: HandoverData = {
        day: options.day,
        environment,
        bench: deps.benchName(),
        location: options.location ?? null,
        bundles: grouped,
        parcels: all.length,
        weightGrams: sumWeights(all),
        setApart,
        toPull: setApart.filter((parcel) => parcel.kind === 'pull').length,
        secondCopies: {
          certain: all.filter((parcel) => parcel.secondCopy === 'certain').length,
          possible: all.filter((parcel) => parcel.secondCopy === 'possible').length,
        },
        pdfPath: null,
      };
      if (!options.pdf) return handover;
      const folder = join(deps.dataDir, 'handover');
      mkdirSync(folder, { recursive: true, mode: 0o700 });
      const pdf = await handoverPdf(handover);
      const name = `handover-${environment}-${options.day}${options.location !== undefined ? `-location-${options.location}` : ''}`;
      const path = writeBeside(folder, name, pdf);
      return { ...handover, pdfPath: path };
    },
  };
}

/**
 * Writes `<name>.pdf`, or `<name>-2.pdf`, `-3`… when a list of that name is there already: the
 * exclusive flag makes taking a name and writing it one step, so two closes at once never share one.
 */
function writeBeside(folder: string, name: string, bytes: Uint8Array): string {
  for (let copy = 1; ; copy += 1) {
    const path = join(folder, copy === 1 ? `${name}.pdf` : `${name}-${copy}.pdf`);
    try {
      writeFileSync(path, bytes, { mode: 0o600, flag: 'wx' });
      return path;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

function sumWeights(parcels: readonly Parcel[]): number | null {
  const known = parcels.map((parcel) => parcel.weightGrams).filter((weight): weight is number => weight !== null);
  return known.length === 0 ? null : known.reduce((sum, weight) => sum + weight, 0);
}

const kilos = (grams: number | null) => (grams === null ? 'weight not known' : `${(grams / 1000).toFixed(1)} kg`);

/** Standard PDF fonts speak WinAnsi only: anything else is shown as '?' rather than failing the sheet. */
const printable = (text: string) => text.replace(/[^\x20-\x7E\xA0-\xFF]/g, '?');

/** "1 parcel", "2 parcels". */
const counted = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/**
 * The handover list as an A4 PDF: each parcel of each bundle with its barcode as Code 128. Every
 * page carries the list's header (bench, day, environment) and "Page n of m" at its foot, so a
 * page that comes loose is still known; a bundle's heading never stands alone at a page's foot.
 */
export async function handoverPdf(handover: HandoverData): Promise<Uint8Array> {
  const [{ PDFDocument, StandardFonts }, { toBuffer: barcodePng }] = await Promise.all([import('pdf-lib'), import('bwip-js/node')]);
  const pdf = await PDFDocument.create();
  pdf.setTitle(`Handover ${handover.day} ${handover.bench}`);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const [width, height] = [595.28, 841.89];
  const margin = 40;
  // Room kept at the top of each later page for the running header, and at the foot for the page number.
  const headerRoom = 24;
  const footerRoom = 20;
  const bottom = margin + footerRoom;
  let page: PDFPage = pdf.addPage([width, height]);
  let y = height - margin;
  const newPageIfBelow = (needed: number) => {
    if (y - needed >= bottom) return;
    page = pdf.addPage([width, height]);
    y = height - margin - headerRoom;
  };
  const line = (text: string, size = 10, face: PDFFont = font) => {
    newPageIfBelow(size + 4);
    page.drawText(printable(text), { x: margin, y: y - size, size, font: face });
    y -= size + 6;
  };
  const barcodeOf = async (parcel: Parcel) => {
    if (!parcel.barcode) return null;
    const png = await barcodePng({ bcid: 'code128', text: parcel.barcode, scale: 2, height: 10, includetext: true, textxalign: 'center' });
    const image = await pdf.embedPng(png);
    // Drawn at 0.75 pt per pixel: a module is 1.5 pt, wide enough to read from paper or a 150 dpi render.
    return { image, width: image.width * 0.75, height: image.height * 0.75 };
  };
  const rowHeight = (drawn: { height: number } | null) => (drawn ? Math.max(drawn.height, 14) + 14 : 16);

  line(`Handover list - ${handover.bench}`, 16, bold);
  line(`${handover.day}  |  ${handover.environment}${handover.location !== null ? `  |  location ${handover.location}` : ''}`);
  line(`${counted(handover.parcels, 'parcel', 'parcels')} in ${counted(handover.bundles.length, 'bundle', 'bundles')}, ${kilos(handover.weightGrams)}`, 11, bold);
  y -= 6;
  for (const bundle of handover.bundles) {
    const [first, ...rest] = bundle.parcels;
    const firstDrawn = first ? await barcodeOf(first) : null;
    // The heading goes over to the next page with its first parcel rather than stand alone.
    // (The heading takes 18 pt; a parcel row asks for its barcode's height and 18 more, a text row 14.)
    newPageIfBelow(18 + (first ? (firstDrawn ? firstDrawn.height + 18 : 14) : 0));
    line(`${bundle.bundleId ? `Bundle ${bundle.bundleId}` : 'Without bundle'}: ${counted(bundle.parcels.length, 'parcel', 'parcels')}, ${kilos(bundle.weightGrams)}`, 12, bold);
    for (const [index, parcel] of [first, ...rest].entries()) {
      if (!parcel) continue;
      const drawn = index === 0 ? firstDrawn : await barcodeOf(parcel);
      const label = `${parcel.orderRef ?? parcel.orderId}  ${parcel.weightGrams !== null ? kilos(parcel.weightGrams) : ''}`;
      if (!drawn) {
        line(`${label}  (no barcode known)`);
        continue;
      }
      newPageIfBelow(drawn.height + 18);
      page.drawText(printable(label), { x: margin, y: y - 10, size: 10, font });
      page.drawImage(drawn.image, { x: margin + 200, y: y - drawn.height, width: drawn.width, height: drawn.height });
      y -= rowHeight(drawn);
    }
    y -= 6;
  }
  const twice = handover.bundles.flatMap((bundle) => bundle.parcels).filter((parcel) => parcel.secondCopy !== null);
  if (twice.length > 0) {
    y -= 6;
    line(`Labels printed twice after a printer fault: ${handover.secondCopies.certain} certain, ${handover.secondCopies.possible} possible - check each parcel carries one label`, 10, bold);
    for (const parcel of twice) line(`${parcel.orderRef ?? parcel.orderId}  ${parcel.barcode ?? ''}  - ${parcel.secondCopy === 'certain' ? 'two labels came out' : 'two labels may have come out'}`);
  }
  if (handover.setApart.length > 0) {
    y -= 6;
    newPageIfBelow(18 + 16);
    line(`Not for the driver (${handover.setApart.length}): keep these off the van`, 12, bold);
    for (const parcel of handover.setApart) line(`${parcel.orderRef ?? parcel.orderId}  ${parcel.barcode ?? ''}  - ${parcel.why}`);
  }
  const pages = pdf.getPages();
  for (const [index, each] of pages.entries()) {
    if (index > 0) {
      each.drawText(printable(`Handover list - ${handover.bench}  |  ${handover.day}  |  ${handover.environment}  (continued)`), { x: margin, y: height - margin - 10, size: 10, font: bold });
    }
    const number = `Page ${index + 1} of ${pages.length}`;
    each.drawText(number, { x: width - margin - font.widthOfTextAtSize(number, 9), y: margin, size: 9, font });
  }
  return pdf.save();
}
