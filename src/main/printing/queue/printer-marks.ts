/**
 * What tells a printer that carried on from one that restarted or was swapped: its serial number,
 * its time since power-on and its life label counter, read over SGD. A printer that does not know
 * a variable answers "?": that mark is then null and the proof of printing does without it.
 */
import { parseLabelCount, parseSgdReply, parseUptimeSeconds, restartMarkVariables } from '../../../shared/zebra/sgd';
import { getvarQuery } from '../../../shared/zebra/queries';
import type { StatusTransport } from '../transports/transport';

export interface PrinterMarks {
  serial: string | null;
  uptimeSeconds: number | null;
  /** Labels printed in the printer's life. */
  odometer: number | null;
}

/** Reads the marks asked for in turn (all three by default); a transport error (no answer, broken connection) is thrown. */
export async function readPrinterMarks(transport: StatusTransport, which: { serial?: boolean; uptime?: boolean } = {}): Promise<PrinterMarks> {
  const read = async (name: string): Promise<string | null> => parseSgdReply(name, await transport.query(getvarQuery(name)));
  // The counter first, right after the status answer the caller just read: a label finishing in
  // between would make the due counts one too high (a label called uncertain, never the reverse).
  const odometer = await read(restartMarkVariables.odometer);
  const serial = which.serial === false ? null : await read(restartMarkVariables.serial);
  const uptime = which.uptime === false ? null : await read(restartMarkVariables.uptime);
  return {
    serial: serial === null || serial === '' ? null : serial,
    uptimeSeconds: uptime === null ? null : parseUptimeSeconds(uptime),
    odometer: odometer === null ? null : parseLabelCount(odometer),
  };
}
