import { copyFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expectOnly, numberOption, option } from '../args';
import { exitCodes, type CliCommand } from '../command';
import { json } from '../output';
import { openCalls } from '../station-calls';

export const dayCloseCommand: CliCommand = {
  name: 'day-close',
  summary: "Close the day: the courier's handover list of printed parcels, as a PDF",
  usage:
    'day-close [--day YYYY-MM-DD] [--location <id>] [--printer <id or name>] [--out <file.pdf>] [--json]\n' +
    '  --day       the day to close (default today, local time)\n' +
    '  --location  only parcels of this pickup location\n' +
    '  --printer   also print it: the A4 PDF on a PDF printer, long labels on a Zebra\n' +
    '  --out       also write the PDF here (it is always kept in the data folder)\n' +
    '  --json      the list as JSON',
  valueOptions: ['day', 'location', 'out', 'printer'],
  async run(context) {
    expectOnly(context.args, { flags: ['json'], options: ['day', 'location', 'out', 'printer'] });
    const location = numberOption(context.args, 'location');
    const day = option(context.args, 'day');
    const out = option(context.args, 'out');
    const printer = option(context.args, 'printer');
    const calls = await openCalls(context);
    const handover = await calls.call('supervision.dayClose', { ...(day ? { day } : {}), ...(location !== undefined ? { location } : {}), ...(printer ? { printer } : {}), pdf: true });
    if (!handover) return exitCodes.failed;
    if (out && handover.pdfPath) copyFileSync(handover.pdfPath, resolve(out));
    if (context.args.flags.has('json')) {
      context.print(json(handover));
      return exitCodes.ok;
    }
    context.print(`Handover ${handover.day} (${handover.environment}, ${handover.bench}): ${handover.parcels} parcels in ${handover.bundles.length} bundles`);
    for (const bundle of handover.bundles) context.print(`  ${bundle.bundleId ?? 'no bundle'}: ${bundle.parcels.map((parcel) => parcel.barcode ?? parcel.orderId).join(', ')}`);
    const twice = handover.bundles.flatMap((bundle) => bundle.parcels).filter((parcel) => parcel.secondCopy !== null);
    if (twice.length > 0) {
      context.print(`Labels the printer put out twice after a fault (${handover.secondCopies.certain} certain, ${handover.secondCopies.possible} possible): check each parcel carries one label.`);
      for (const parcel of twice) context.print(`  ${parcel.orderRef ?? parcel.orderId} ${parcel.barcode ?? ''}: ${parcel.secondCopy === 'certain' ? 'two labels came out' : 'two labels may have come out'}`);
    }
    if (handover.setApart.length > 0) {
      context.print(`Not for the driver (${handover.setApart.length}):`);
      for (const parcel of handover.setApart) context.print(`  ${parcel.orderRef ?? parcel.orderId} ${parcel.barcode ?? ''}: ${parcel.why}`);
    }
    context.print(`PDF: ${out ? resolve(out) : handover.pdfPath ?? ''}`);
    if (handover.printed) context.print(`Printed on ${handover.printed.printer} (${handover.printed.format === 'pdf' ? 'A4 PDF' : 'Zebra long labels'}).`);
    return exitCodes.ok;
  },
};
