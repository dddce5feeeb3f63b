/**
 * Prints the handover list: the PDF as it is on an A4 (PDF) printer, or on a Zebra as long labels
 * (4 inch wide, up to 20 parcels a label), each parcel's barcode as a ZPL Code 128 so the driver
 * can scan the strip. Set-apart parcels are listed as text only, as on the PDF.
 */
import type { Environment } from '../../shared/contract/app';
import type { HandoverData } from '../../shared/contract/supervision';
import { StationError } from '../../shared/errors';
import type { PrinterRegistry } from '../printing/printers';
import type { PrinterTransports } from '../printing/transports/printer-transports';
import { errorText } from '../../shared/error-text';

export interface HandoverPrintDeps {
  printers: PrinterRegistry;
  transports: PrinterTransports;
}

const parcelsPerLabel = 20;

/** Text for a ZPL field: printable ASCII without the format's command characters. */
const field = (text: string) => text.replace(/[^\x20-\x7E]|[\^~]/g, '?');

/** The handover as ZPL long labels (203 dpi, 4 inch print width). */
export function handoverZpl(handover: HandoverData): string {
  const parcels = handover.bundles.flatMap((bundle) => bundle.parcels.map((parcel) => ({ ...parcel, bundleId: bundle.bundleId })));
  const chunks: (typeof parcels)[] = [];
  for (let start = 0; start < parcels.length; start += parcelsPerLabel) chunks.push(parcels.slice(start, start + parcelsPerLabel));
  if (chunks.length === 0) chunks.push([]);
  return chunks
    .map((chunk, index) => {
      const last = index === chunks.length - 1;
      const lines: string[] = [];
      let y = 30;
      const text = (value: string, size = 28) => {
        lines.push(`^FO30,${y}^A0N,${size},${size}^FD${field(value)}^FS`);
        y += size + 12;
      };
      text(`Handover ${handover.day} - ${handover.bench}`, 36);
      text(`${handover.parcels} parcels, label ${index + 1} of ${chunks.length}`);
      for (const parcel of chunk) {
        text(`${parcel.orderRef ?? parcel.orderId}  bundle ${parcel.bundleId ?? '-'}`, 24);
        if (parcel.barcode) {
          lines.push(`^FO60,${y}^BY2^BCN,90,Y,N,N^FD${field(parcel.barcode)}^FS`);
          y += 150;
        }
      }
      if (last && handover.setApart.length > 0) {
        text(`Not for the driver (${handover.setApart.length}):`);
        for (const parcel of handover.setApart) text(`${parcel.orderRef ?? parcel.orderId} - ${parcel.why}`, 22);
      }
      return `^XA^CI0^PW812^LL${y + 40}${lines.join('')}^XZ`;
    })
    .join('\n');
}

export async function printHandover(
  deps: HandoverPrintDeps,
  environment: Environment,
  printerId: string,
  handover: HandoverData,
  pdf: Uint8Array,
): Promise<{ printer: string; format: 'zpl' | 'pdf'; bytes: number }> {
  const printer = (await deps.printers.get(environment, printerId)) ?? (await deps.printers.list(environment)).find((candidate) => candidate.name === printerId) ?? null;
  if (!printer) throw new StationError('PRINTER_NOT_FOUND', `No printer "${printerId}" in this environment.`);
  const data = printer.format === 'pdf' ? pdf : new TextEncoder().encode(handoverZpl(handover));
  try {
    const sent = await deps.transports.forPrinter(printer.address).send(data);
    return { printer: printer.name, format: printer.format, bytes: sent.bytesWritten };
  } catch (error) {
    if (error instanceof StationError) throw error;
    throw new StationError('PRINTER_OFFLINE', `The handover list did not reach ${printer.name}: ${errorText(error)}`, undefined, { cause: error });
  }
}
