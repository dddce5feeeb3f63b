/**
 * Which bench drives a printer. A warehouse's benches share the printers, but two benches sending
 * to one Zebra at once would interleave their labels and each would count the other's in its
 * marks, so a bench takes a lease on the printer before its queue gets work, renews it while it has
 * work, and gives it back when the queue goes idle or the station stops (queue-registry.ts).
 *
 * One row per printer (printer_leases, primary key environment + the printer's physical address),
 * taken in one statement: `INSERT … ON CONFLICT DO UPDATE … WHERE` the row is this bench's or has
 * expired, `RETURNING` the holder. Two benches taking it at once: the primary key makes one insert
 * and the other's conflict wait for it, then its WHERE finds the row neither its own nor expired,
 * so it changes nothing and reads who holds it. A lease lasts `leaseDurationMs` from its last
 * renewal on the taking bench's clock (benches' clocks are assumed to agree within seconds, as
 * NTP keeps them); a bench that stopped without giving it back (crashed, unplugged) blocks the
 * printer for at most that long.
 *
 * Only network printers are leased: an OS print queue or a USB printer is a device attached to the
 * bench that prints to it, so two benches naming the same queue reach two printers.
 */
import { z } from 'zod';
import type { Environment } from '../../shared/contract/app';
import { StationError } from '../../shared/errors';
import { printerAddressKey, type PrinterAddress } from '../../shared/zebra/printer-address';
import type { StoreEngine } from '../store';

/** How long a lease lasts without renewal; the holder renews it every third of that. */
export const leaseDurationMs = 30_000;

export interface PrinterLeasesOptions {
  /** This bench's id (store/bench-id.ts). */
  bench: string;
  /** This bench's name as the lead set it, for the refusal another bench shows. */
  benchName: () => string;
  /** Wall-clock milliseconds (injected in tests). */
  now?: () => number;
  durationMs?: number;
}

export interface LeasedPrinter {
  id: string;
  name: string;
  environment: Environment;
  address: PrinterAddress;
}

export interface LeaseHolder {
  bench: string;
  benchName: string;
  /** When the holder took it (ISO 8601). */
  since: string;
  expiresAt: string;
}

const HolderRowSchema = z.object({ bench: z.string(), bench_name: z.string(), taken_at: z.string(), expires_at: z.string() });

/** The lease's key for a printer, or null for a printer that only this bench reaches (see above). */
export function leaseKey(address: PrinterAddress): string | null {
  return address.kind === 'network-zebra' ? printerAddressKey(address) : null;
}

export class PrinterLeases {
  private readonly now: () => number;
  readonly durationMs: number;

  constructor(
    private readonly engine: StoreEngine,
    private readonly options: PrinterLeasesOptions,
  ) {
    this.now = options.now ?? (() => Date.now());
    this.durationMs = options.durationMs ?? leaseDurationMs;
  }

  /**
   * Takes the printer's lease for this bench, or renews it when it is this bench's already.
   * PRINTER_LEASED (facts: printerName, benchName, since) when another bench holds it.
   */
  async take(printer: LeasedPrinter): Promise<void> {
    const key = leaseKey(printer.address);
    if (key === null) return;
    const now = this.now();
    const at = new Date(now).toISOString();
    const until = new Date(now + this.durationMs).toISOString();
    const holder = await this.engine.transaction(async (tx) => {
      const taken = await tx.query(
        `INSERT INTO printer_leases (environment, printer_key, printer_id, bench, bench_name, taken_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (environment, printer_key) DO UPDATE SET
           printer_id = excluded.printer_id,
           bench_name = excluded.bench_name,
           taken_at = CASE WHEN printer_leases.bench = excluded.bench THEN printer_leases.taken_at ELSE excluded.taken_at END,
           bench = excluded.bench,
           expires_at = excluded.expires_at
         WHERE printer_leases.bench = excluded.bench OR printer_leases.expires_at <= excluded.taken_at
         RETURNING bench`,
        [printer.environment, key, printer.id, this.options.bench, this.options.benchName(), at, until],
      );
      if (taken.length > 0) return null;
      return readHolder(tx, printer.environment, key);
    });
    if (holder) throw leasedElsewhere(printer, holder);
  }

  /** Gives the printer back (only this bench's lease: one another bench took over stays theirs). */
  async release(printer: LeasedPrinter): Promise<void> {
    const key = leaseKey(printer.address);
    if (key === null) return;
    await this.engine.execute('DELETE FROM printer_leases WHERE environment = $1 AND printer_key = $2 AND bench = $3', [printer.environment, key, this.options.bench]);
  }

  /** Who holds the printer now (an expired lease is nobody's). */
  async holder(printer: LeasedPrinter): Promise<LeaseHolder | null> {
    const key = leaseKey(printer.address);
    if (key === null) return null;
    const holder = await readHolder(this.engine, printer.environment, key);
    return holder && holder.expiresAt > new Date(this.now()).toISOString() ? holder : null;
  }
}

async function readHolder(session: Pick<StoreEngine, 'query'>, environment: Environment, key: string): Promise<LeaseHolder | null> {
  const [row] = await session.query('SELECT bench, bench_name, taken_at, expires_at FROM printer_leases WHERE environment = $1 AND printer_key = $2', [environment, key]);
  if (row === undefined) return null;
  const parsed = HolderRowSchema.parse(row);
  return { bench: parsed.bench, benchName: parsed.bench_name, since: parsed.taken_at, expiresAt: parsed.expires_at };
}

function leasedElsewhere(printer: LeasedPrinter, holder: LeaseHolder): StationError {
  return new StationError(
    'PRINTER_LEASED',
    `${printer.name} is being driven by ${holder.benchName} since ${holder.since}: nothing was sent. Use another printer, or wait until that bench has finished.`,
    undefined,
    { facts: { printerId: printer.id, printerName: printer.name, benchName: holder.benchName, since: holder.since } },
  );
}
