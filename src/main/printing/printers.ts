/**
 * The printer registry: the printers table of the current environment, each row a printer with
 * its kind, its address, the label orientation it is pinned to and whether it is the default for
 * single labels or for bundles (one printer per role at most, enforced by the database).
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Orientation } from '../../shared/api/schemas';
import { EnvironmentSchema, type Environment } from '../../shared/contract/app';
import { PrinterOptionsSchema, type PrinterAddInput, type PrinterData, type PrinterOptions, type PrinterUpdateInput } from '../../shared/contract/printers';
import { StationError } from '../../shared/errors';
import { describePrinterAddress, PrinterAddressSchema, printerAddressKey, type PrinterAddress } from '../../shared/zebra/printer-address';
import type { StationDatabase } from '../store/database';
import { describeLabelRoute, labelRoute } from './label-route';

export type PrinterRecord = PrinterData;
export type PrinterRole = 'single' | 'bundles';

export const defaultPrinterOptions: PrinterOptions = {
  maxFormatsInBuffer: 3,
  gfaEncoding: 'compressed',
  dpi: null,
  printWidthDots: null,
  model: null,
  serialNumber: null,
  checkedAt: null,
  warnings: [],
};

/** What the printer said it is; kept in columns of its own (the route follows them), not in the options JSON. */
export type PrinterIdentityFacts = Pick<PrinterOptions, 'dpi' | 'printWidthDots' | 'serialNumber'>;

const PrinterRowSchema = z.object({
  environment: EnvironmentSchema,
  id: z.string(),
  name: z.string(),
  kind: z.string(),
  address: z.string(),
  orientation: z.string(),
  default_for_single: z.number(),
  default_for_bundles: z.number(),
  options: z.string(),
  serial_number: z.string().nullable(),
  dpi: z.number().int().positive().nullable().catch(null),
  print_width_dots: z.number().int().positive().nullable().catch(null),
  identified_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
type PrinterRow = z.infer<typeof PrinterRowSchema>;
const DataVersionSchema = z.tuple([z.number()]);

const columns = 'environment, id, name, kind, address, orientation, default_for_single, default_for_bundles, options, created_at, updated_at';
const identityColumns = 'serial_number, dpi, print_width_dots, identified_at';
const idAlphabet = 'abcdefghjkmnpqrstuvwxyz23456789';

/** What a printer takes: a PDF queue takes PDFs, everything else ZPL. */
export function printerFormat(address: PrinterAddress): 'zpl' | 'pdf' {
  return address.kind === 'os-queue-pdf' ? 'pdf' : 'zpl';
}

export class PrinterRegistry {
  // The printers are read on every scan; parsing their rows each time would cost more than the
  // rest of the scan's local work. The cache is dropped on this registry's own writes and when
  // another connection (the CLI next to the app) has written to the database.
  private readonly cache = new Map<Environment, PrinterRecord[]>();
  private readonly identifiedConnections = new Map<string, number>();
  private cacheVersion = -1;
  private readonly selectAll;
  private readonly dataVersion;

  constructor(
    private readonly db: StationDatabase,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.selectAll = db.prepare(`SELECT ${columns}, ${identityColumns} FROM printers WHERE environment = ? ORDER BY created_at, id`);
    this.dataVersion = db.prepare('PRAGMA data_version').raw(true);
  }

  list(environment: Environment): PrinterRecord[] {
    const version = DataVersionSchema.parse(this.dataVersion.get())[0];
    if (version !== this.cacheVersion) {
      this.cache.clear();
      this.cacheVersion = version;
    }
    let printers = this.cache.get(environment);
    if (!printers) {
      printers = this.selectAll.all(environment).flatMap((record) => {
        const row = PrinterRowSchema.safeParse(record);
        // A row this version cannot read (written by hand, or by a newer version) is left out, not fatal.
        const printer = row.success ? toPrinter(row.data) : null;
        return printer ? [printer] : [];
      });
      this.cache.set(environment, printers);
    }
    return [...printers];
  }

  get(environment: Environment, id: string): PrinterRecord | null {
    return this.list(environment).find((printer) => printer.id === id) ?? null;
  }

  /** By id, or else by name (case-insensitive): what a person types on the command line. */
  find(environment: Environment, idOrName: string): PrinterRecord | null {
    const byId = this.get(environment, idOrName);
    if (byId) return byId;
    const wanted = idOrName.trim().toLowerCase();
    const matches = this.list(environment).filter((printer) => printer.name.toLowerCase() === wanted);
    return matches.length === 1 ? (matches[0] ?? null) : null;
  }

  require(environment: Environment, id: string): PrinterRecord {
    const printer = this.get(environment, id);
    if (!printer) {
      throw new StationError('PRINTER_NOT_FOUND', `There is no printer "${id}" in the ${environment} environment. Choose one in Printers.`, undefined, {
        facts: { subject: 'gone', environment, printerId: id },
      });
    }
    return printer;
  }

  /** The default printer for a role, or the only printer when there is just one. */
  defaultFor(environment: Environment, role: PrinterRole): PrinterRecord | null {
    const printers = this.list(environment);
    const chosen = printers.find((printer) => (role === 'single' ? printer.defaultForSingle : printer.defaultForBundles));
    if (chosen) return chosen;
    return printers.length === 1 ? (printers[0] ?? null) : null;
  }

  /**
   * The printer asked for, or the role's default; PRINTER_NOT_FOUND with what to do otherwise, and
   * PRINTER_TOO_NARROW for a printer known to cut labels off.
   */
  choose(environment: Environment, role: PrinterRole, id: string | undefined): PrinterRecord {
    const printer = id !== undefined ? this.require(environment, id) : this.defaultFor(environment, role);
    if (printer) {
      const route = labelRoute(printer);
      if (route.kind === 'refused') throw route.error;
      return printer;
    }
    const what = role === 'single' ? 'single labels' : 'bundles';
    const none = this.list(environment).length === 0;
    throw new StationError(
      'PRINTER_NOT_FOUND',
      none ? 'No printer is set up yet. Add one in Printers.' : `No printer is chosen for ${what}. Choose one in Printers.`,
      undefined,
      { facts: { subject: none ? 'none' : 'not-chosen', environment, role } },
    );
  }

  /** Saves a printer; `identity` is what a check before saving found. */
  add(environment: Environment, input: PrinterAddInput, options: Partial<PrinterOptions> = {}, identity: PrinterIdentityFacts | null = null): PrinterRecord {
    const now = this.clock().toISOString();
    const id = this.newId(environment);
    const address = PrinterAddressSchema.parse(input.address);
    const merged = PrinterOptionsSchema.parse({
      ...defaultPrinterOptions,
      ...options,
      ...(input.maxFormatsInBuffer !== undefined ? { maxFormatsInBuffer: input.maxFormatsInBuffer } : {}),
      ...(input.gfaEncoding !== undefined ? { gfaEncoding: input.gfaEncoding } : {}),
    });
    this.cache.clear();
    this.db.transaction(() => {
      if (input.defaultForSingle) this.clearRole(environment, 'single');
      if (input.defaultForBundles) this.clearRole(environment, 'bundles');
      this.db
        .prepare(`INSERT INTO printers (${columns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
        .run(
          environment,
          id,
          input.name,
          address.kind,
          JSON.stringify(address),
          input.orientation ?? 'landscape',
          input.defaultForSingle ? 1 : 0,
          input.defaultForBundles ? 1 : 0,
          JSON.stringify(withoutIdentity(merged)),
          now,
          now,
        );
      if (identity) this.writeIdentity(environment, id, identity, now);
    })();
    return this.require(environment, id);
  }

  update(environment: Environment, change: PrinterUpdateInput): PrinterRecord {
    const current = this.require(environment, change.id);
    const address: PrinterAddress = change.address ? PrinterAddressSchema.parse(change.address) : current.address;
    const options = PrinterOptionsSchema.parse({
      ...current.options,
      ...(change.maxFormatsInBuffer !== undefined ? { maxFormatsInBuffer: change.maxFormatsInBuffer } : {}),
      ...(change.gfaEncoding !== undefined ? { gfaEncoding: change.gfaEncoding } : {}),
      // A new address is another printer: what the last check found no longer applies.
      ...(change.address ? { model: null, checkedAt: null, warnings: [] } : {}),
    });
    const orientation: Orientation = change.orientation ?? current.orientation;
    const single = change.defaultForSingle ?? current.defaultForSingle;
    const bundles = change.defaultForBundles ?? current.defaultForBundles;
    this.cache.clear();
    this.db.transaction(() => {
      if (change.defaultForSingle) this.clearRole(environment, 'single');
      if (change.defaultForBundles) this.clearRole(environment, 'bundles');
      this.db
        .prepare(
          `UPDATE printers SET name = ?, kind = ?, address = ?, orientation = ?, default_for_single = ?, default_for_bundles = ?, options = ?, updated_at = ?
           WHERE environment = ? AND id = ?`,
        )
        .run(
          change.name ?? current.name,
          address.kind,
          JSON.stringify(address),
          orientation,
          single ? 1 : 0,
          bundles ? 1 : 0,
          JSON.stringify(withoutIdentity(options)),
          this.clock().toISOString(),
          environment,
          change.id,
        );
      if (change.address) this.writeIdentity(environment, change.id, { dpi: null, printWidthDots: null, serialNumber: null }, null);
    })();
    return this.require(environment, change.id);
  }

  /** Keeps what a check found (resolution, width, serial number, model, warnings) with the printer. */
  recordCheck(
    environment: Environment,
    id: string,
    found: Pick<PrinterOptions, 'dpi' | 'printWidthDots' | 'model' | 'warnings'> & Partial<Pick<PrinterOptions, 'serialNumber'>>,
  ): PrinterRecord {
    const current = this.require(environment, id);
    const now = this.clock().toISOString();
    const options = PrinterOptionsSchema.parse({ ...current.options, ...found, checkedAt: now });
    this.cache.clear();
    this.db.transaction(() => {
      this.db.prepare('UPDATE printers SET options = ?, updated_at = ? WHERE environment = ? AND id = ?').run(JSON.stringify(withoutIdentity(options)), now, environment, id);
      this.writeIdentity(environment, id, { ...found, serialNumber: found.serialNumber ?? null }, now);
    })();
    return this.require(environment, id);
  }

  /**
   * A connection found another printer at the address (serial number or resolution changed):
   * what it is now, for every printer row at that address, so the route follows it.
   */
  recordIdentity(environment: Environment, address: PrinterAddress, found: PrinterIdentityFacts): PrinterRecord[] {
    const key = printerAddressKey(address);
    const now = this.clock().toISOString();
    const same = this.list(environment).filter((printer) => printerAddressKey(printer.address) === key);
    this.cache.clear();
    this.db.transaction(() => {
      for (const printer of same) this.writeIdentity(environment, printer.id, found, now);
    })();
    return same.map((printer) => this.require(environment, printer.id));
  }

  /**
   * The connection of a route on which its printer was last identified (the transport counts its
   * connections): a new connection may reach another printer, so it is asked again. In memory
   * only: after a restart every printer is asked on its first connection.
   */
  identifiedOnConnection(address: PrinterAddress): number | undefined {
    return this.identifiedConnections.get(printerAddressKey(address));
  }

  markIdentifiedOnConnection(address: PrinterAddress, connection: number | undefined): void {
    const key = printerAddressKey(address);
    if (connection === undefined) this.identifiedConnections.delete(key);
    else this.identifiedConnections.set(key, connection);
  }

  private writeIdentity(environment: Environment, id: string, found: PrinterIdentityFacts, at: string | null): void {
    this.db
      .prepare('UPDATE printers SET serial_number = ?, dpi = ?, print_width_dots = ?, identified_at = ? WHERE environment = ? AND id = ?')
      .run(found.serialNumber, found.dpi, found.printWidthDots, at, environment, id);
  }

  remove(environment: Environment, id: string): void {
    this.require(environment, id);
    this.cache.clear();
    this.db.prepare('DELETE FROM printers WHERE environment = ? AND id = ?').run(environment, id);
  }

  private clearRole(environment: Environment, role: PrinterRole): void {
    const column = role === 'single' ? 'default_for_single' : 'default_for_bundles';
    this.db.prepare(`UPDATE printers SET ${column} = 0 WHERE environment = ? AND ${column} = 1`).run(environment);
  }

  private newId(environment: Environment): string {
    for (;;) {
      const bytes = randomBytes(8);
      const id = `p-${[...bytes].map((byte) => idAlphabet[byte % idAlphabet.length]).join('')}`;
      if (!this.get(environment, id)) return id;
    }
  }
}

function toPrinter(row: PrinterRow): PrinterRecord | null {
  let address: PrinterAddress;
  try {
    const parsed = PrinterAddressSchema.safeParse(JSON.parse(row.address));
    if (!parsed.success) return null;
    address = parsed.data;
  } catch {
    return null;
  }
  let options = defaultPrinterOptions;
  try {
    const parsed = PrinterOptionsSchema.partial().safeParse(JSON.parse(row.options));
    if (parsed.success) options = { ...defaultPrinterOptions, ...stripUndefined(parsed.data) };
  } catch {
    options = defaultPrinterOptions;
  }
  options = { ...options, dpi: row.dpi, printWidthDots: row.print_width_dots, serialNumber: row.serial_number };
  const printer = {
    id: row.id,
    environment: row.environment,
    name: row.name,
    address,
    format: printerFormat(address),
    description: describePrinterAddress(address),
    orientation: row.orientation === 'portrait' ? ('portrait' as const) : ('landscape' as const),
    defaultForSingle: row.default_for_single === 1,
    defaultForBundles: row.default_for_bundles === 1,
    options,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
  return { ...printer, route: describeLabelRoute(printer) };
}

/** The identity lives in its own columns; the options JSON keeps the tuning and the check's notes. */
function withoutIdentity(options: PrinterOptions): Omit<PrinterOptions, 'dpi' | 'printWidthDots' | 'serialNumber'> {
  const { dpi: _dpi, printWidthDots: _width, serialNumber: _serial, ...rest } = options;
  return rest;
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}
