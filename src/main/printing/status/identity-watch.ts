/**
 * Whether the printer at an address is still the one the station identified. Asked when a
 * connection to it has been (re)established — a new connection may reach another printer, swapped
 * in at the same address — and not on every label: the transport counts its connections, and the
 * registry remembers on which one each address was last identified. A different serial number
 * (device.unique_id) or resolution means another printer: its print width is asked too, it is
 * recorded with every printer row at that address, and the label route follows it.
 */
import type { Logger } from '../../logging/logger';
import type { PrinterRecord, PrinterRegistry } from '../printers';
import { canQuery, PrinterTransportError, type PrinterTransport } from '../transports/transport';
import { readPrinterFingerprint, readPrintWidth } from './printer-identity';

/** A transport that can say how many connections it has opened (network and USB Zebras). */
export interface CountsConnections {
  readonly connectionCount: number;
  readonly connected: boolean;
}

function countsConnections(transport: PrinterTransport): transport is PrinterTransport & CountsConnections {
  return 'connectionCount' in transport && typeof (transport as Partial<CountsConnections>).connectionCount === 'number';
}

export interface IdentityWatchDeps {
  printers: PrinterRegistry;
  transport: PrinterTransport;
  logger?: Logger;
  /**
   * The printer was looked at for a label, on a connection already identified or on a new one it
   * just identified (the roll watch reads a new connection's roll once the label has gone).
   */
  looked?(printer: PrinterRecord, connection: 'known' | 'new'): void;
}

/**
 * The printer's record as of now: re-identified first when the connection to it is new.
 * `justRead`: the caller read `printer` from the registry for this very call (a scan's first
 * label), so it is not read again before the label's request.
 */
export async function currentPrinter(deps: IdentityWatchDeps, printer: PrinterRecord, options: { justRead?: boolean } = {}): Promise<PrinterRecord> {
  const { printers, transport } = deps;
  const fresh = options.justRead ? printer : ((await printers.get(printer.environment, printer.id)) ?? printer);
  if (!canQuery(transport) || !countsConnections(transport)) return fresh;
  if (transport.connected && printers.identifiedOnConnection(fresh.address) === transport.connectionCount) {
    deps.looked?.(fresh, 'known');
    return fresh;
  }
  try {
    // Asking opens the connection when there is none; the label then goes out on it.
    const fingerprint = await readPrinterFingerprint(transport);
    if (fingerprint.dpi === fresh.options.dpi && fingerprint.serialNumber === fresh.options.serialNumber) {
      printers.markIdentifiedOnConnection(fresh.address, transport.connectionCount);
      deps.looked?.(fresh, 'new');
      return fresh;
    }
    // Another printer, or one never identified: its print width too (the route depends on it).
    const identity = { ...fingerprint, printWidthDots: await readPrintWidth(transport) };
    const updated = await printers.recordIdentity(fresh.environment, fresh.address, identity);
    printers.markIdentifiedOnConnection(fresh.address, transport.connectionCount);
    const now = updated.find((candidate) => candidate.id === fresh.id) ?? fresh;
    deps.looked?.(now, 'new');
    if (fresh.options.dpi !== null) {
      deps.logger?.warn('another printer answers at this address; labels follow what it is', {
        printer: fresh.name,
        before: { serialNumber: fresh.options.serialNumber, dpi: fresh.options.dpi, printWidthDots: fresh.options.printWidthDots },
        now: { serialNumber: identity.serialNumber, dpi: identity.dpi, printWidthDots: identity.printWidthDots },
        route: now.route.kind,
      });
    }
    return now;
  } catch (error) {
    // Not reachable now: the send finds that out and the queue waits for the printer as it does
    // for any fault; the next connection is asked again.
    if (error instanceof PrinterTransportError) {
      printers.markIdentifiedOnConnection(fresh.address, undefined);
      return fresh;
    }
    throw error;
  }
}
