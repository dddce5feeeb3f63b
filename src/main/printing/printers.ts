/**
 * The printer registry: the printers table of the current environment, each row a printer with
 * its kind, its address, the label orientation it is pinned to, and whether it is this bench's
 * default for single labels or for bundles. On a warehouse's shared store every bench sees the same
 * printers; the defaults are each bench's own (printer_defaults, one printer per bench and role,
 * enforced by its primary key).
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Orientation } from '../../shared/api/schemas';
import { EnvironmentSchema, type Environment } from '../../shared/contract/app';
import { PrinterOptionsSchema, type PrinterAddInput, type PrinterData, type PrinterOptions, type PrinterUpdateInput } from '../../shared/contract/printers';
import { StationError } from '../../shared/errors';
import { heirOf, roleHolder } from '../../shared/printer-roles';
import { describePrinterAddress, PrinterAddressSchema, printerAddressKey, type PrinterAddress } from '../../shared/zebra/printer-address';
import type { StoreEngine, StoreSession, StoreTransaction, Subscription } from '../store';
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
  default_for_single: z.coerce.number(),
  default_for_bundles: z.coerce.number(),
  options: z.string(),
  serial_number: z.string().nullable(),
  dpi: z.number().int().positive().nullable().catch(null),
  print_width_dots: z.number().int().positive().nullable().catch(null),
  identified_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
type PrinterRow = z.infer<typeof PrinterRowSchema>;
/** A printer changed: every bench drops its cached list (payload: the environment). */
export const printersChannel = 'printers';

const columns = 'environment, id, name, kind, address, orientation, options, created_at, updated_at';
const identityColumns = 'serial_number, dpi, print_width_dots, identified_at';
// This bench's defaults, as 0/1 per printer ($2: the bench id).
const defaultColumns = ['single', 'bundles']
  .map((role) => `(SELECT count(*) FROM printer_defaults d WHERE d.environment = p.environment AND d.bench = $2 AND d.role = '${role}' AND d.printer_id = p.id) AS default_for_${role}`)
  .join(', ');
const selectAll = `SELECT ${columns
  .split(', ')
  .map((column) => `p.${column}`)
  .join(', ')}, ${identityColumns}, ${defaultColumns} FROM printers p WHERE p.environment = $1 ORDER BY p.created_at, p.id`;
const idAlphabet = 'abcdefghjkmnpqrstuvwxyz23456789';

/** What a printer takes: a PDF queue takes PDFs, everything else ZPL. */
export function printerFormat(address: PrinterAddress): 'zpl' | 'pdf' {
  return address.kind === 'os-queue-pdf' ? 'pdf' : 'zpl';
}

export interface PrinterRegistryOptions {
  /** This bench's id (store/bench-id.ts): whose defaults are read and written. */
  bench: string;
  clock?: () => Date;
}

export class PrinterRegistry {
  // The printers are read on every scan; reading and parsing their rows each time would cost more
  // than the rest of the scan's local work, so a list is kept until something changes it:
  // this registry's own writes; another bench's (the 'printers' notification, sent by the
  // writing transaction; after a listening gap everything is dropped); and on the bench's own file
  // another connection to it (the CLI next to the app), seen by the engine's outsideWritesVersion.
  private readonly cache = new Map<Environment, PrinterRecord[]>();
  private readonly identifiedConnections = new Map<string, number>();
  // Every printer as last read, kept when the cache is dropped (see lastKnown).
  private readonly seen = new Map<string, PrinterRecord>();
  // Each environment's whole list as last read (see lastRead).
  private readonly lastLists = new Map<Environment, PrinterRecord[]>();
  // Bumped whenever the cache is dropped: a read that started before keeps its rows to itself.
  private generation = 0;
  private cacheVersion = -1;
  private listening: Subscription | null = null;
  private readonly bench: string;
  private readonly clock: () => Date;

  constructor(
    private readonly engine: StoreEngine,
    options: PrinterRegistryOptions,
  ) {
    this.bench = options.bench;
    this.clock = options.clock ?? (() => new Date());
  }

  /**
   * Follows other benches' changes. Until it is called, on a store that cannot tell other
   * connections' writes by itself (a warehouse's shared store) the list is read from the store
   * every time: a cache nobody drops would go stale.
   */
  async follow(): Promise<Subscription> {
    const subscription = await this.engine.subscribe(printersChannel, {
      onMessage: () => this.forget(),
      onGap: () => this.forget(),
    });
    this.listening = subscription;
    return {
      close: async () => {
        this.listening = null;
        this.forget();
        await subscription.close();
      },
    };
  }

  async list(environment: Environment): Promise<PrinterRecord[]> {
    // Where the store tells another connection's writes apart (the bench's file), a list is kept
    // even without notifications; elsewhere only while they are followed.
    const version = await this.engine.outsideWritesVersion();
    const cacheable = this.listening !== null || version !== null;
    if (version !== null && version !== this.cacheVersion) {
      this.forget();
      this.cacheVersion = version;
    }
    const cached = cacheable ? this.cache.get(environment) : undefined;
    if (cached) return [...cached];
    const generation = this.generation;
    const printers = await this.read(this.engine, environment);
    if (cacheable && generation === this.generation) this.cache.set(environment, printers);
    return [...printers];
  }

  async get(environment: Environment, id: string): Promise<PrinterRecord | null> {
    return (await this.list(environment)).find((printer) => printer.id === id) ?? null;
  }

  /**
   * A printer as this registry last read it, without asking the store: for the few synchronous
   * places that can do without the latest (a run's progress naming its printer, the serial number
   * a queue would otherwise ask the printer for). Null when it was never read.
   */
  lastKnown(environment: Environment, id: string): PrinterRecord | null {
    return this.seen.get(`${environment}\u0000${id}`) ?? null;
  }

  /** Each environment's printers as this registry last read them, with this bench's defaults, without asking the store. */
  lastRead(): Map<Environment, PrinterRecord[]> {
    return new Map(this.lastLists);
  }

  /**
   * Makes the environment's printers and this bench's defaults exactly these (ids, addresses,
   * identity as they are): the bench's own file takes the shared store's printers as last read,
   * so it can print while that store is offline (printing/offline).
   */
  async replaceWith(environment: Environment, printers: readonly PrinterRecord[]): Promise<void> {
    const now = this.clock().toISOString();
    await this.write(environment, async (tx) => {
      await tx.execute('DELETE FROM printer_defaults WHERE environment = $1 AND bench = $2', [environment, this.bench]);
      await tx.execute('DELETE FROM printers WHERE environment = $1', [environment]);
      for (const printer of printers) {
        await tx.execute(`INSERT INTO printers (${columns}, default_for_single, default_for_bundles) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 0, 0)`, [
          environment,
          printer.id,
          printer.name,
          printer.address.kind,
          JSON.stringify(printer.address),
          printer.orientation,
          JSON.stringify(withoutIdentity(printer.options)),
          printer.createdAt,
          printer.updatedAt,
        ]);
        const { dpi, printWidthDots, serialNumber } = printer.options;
        await writeIdentity(tx, environment, printer.id, { dpi, printWidthDots, serialNumber }, dpi !== null || serialNumber !== null ? now : null);
        if (printer.defaultForSingle) await this.setDefault(tx, environment, 'single', printer.id, now);
        if (printer.defaultForBundles) await this.setDefault(tx, environment, 'bundles', printer.id, now);
      }
    });
  }

  /** By id, or else by name (case-insensitive): what a person types on the command line. */
  async find(environment: Environment, idOrName: string): Promise<PrinterRecord | null> {
    const printers = await this.list(environment);
    const byId = printers.find((printer) => printer.id === idOrName);
    if (byId) return byId;
    const wanted = idOrName.trim().toLowerCase();
    const matches = printers.filter((printer) => printer.name.toLowerCase() === wanted);
    return matches.length === 1 ? (matches[0] ?? null) : null;
  }

  async require(environment: Environment, id: string): Promise<PrinterRecord> {
    return requireIn(await this.list(environment), environment, id);
  }

  /** This bench's default printer for a role, or the only printer when there is just one. */
  async defaultFor(environment: Environment, role: PrinterRole): Promise<PrinterRecord | null> {
    return defaultIn(await this.list(environment), role);
  }

  /**
   * The printer asked for, or the role's default; PRINTER_NOT_FOUND with what to do otherwise, and
   * PRINTER_TOO_NARROW for a printer known to cut labels off. One read of the list.
   */
  async choose(environment: Environment, role: PrinterRole, id: string | undefined): Promise<PrinterRecord> {
    const printers = await this.list(environment);
    const printer = id !== undefined ? requireIn(printers, environment, id) : defaultIn(printers, role);
    if (printer) {
      const route = labelRoute(printer);
      if (route.kind === 'refused') throw route.error;
      return printer;
    }
    const what = role === 'single' ? 'single labels' : 'bundles';
    const none = printers.length === 0;
    throw new StationError(
      'PRINTER_NOT_FOUND',
      none ? 'No printer is set up yet. Add one in Printers.' : `No printer is chosen for ${what}. Choose one in Printers.`,
      undefined,
      { facts: { subject: none ? 'none' : 'not-chosen', environment, role } },
    );
  }

  /** Saves a printer; `identity` is what a check before saving found. */
  async add(environment: Environment, input: PrinterAddInput, options: Partial<PrinterOptions> = {}, identity: PrinterIdentityFacts | null = null): Promise<PrinterRecord> {
    const now = this.clock().toISOString();
    const address = PrinterAddressSchema.parse(input.address);
    const merged = PrinterOptionsSchema.parse({
      ...defaultPrinterOptions,
      ...options,
      ...(input.maxFormatsInBuffer !== undefined ? { maxFormatsInBuffer: input.maxFormatsInBuffer } : {}),
      ...(input.gfaEncoding !== undefined ? { gfaEncoding: input.gfaEncoding } : {}),
    });
    const id = newId();
    await this.write(environment, async (tx) => {
      await tx.execute(`INSERT INTO printers (${columns}, default_for_single, default_for_bundles) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 0, 0)`, [
        environment,
        id,
        input.name,
        address.kind,
        JSON.stringify(address),
        input.orientation ?? 'landscape',
        JSON.stringify(withoutIdentity(merged)),
        now,
        now,
      ]);
      if (input.defaultForSingle) await this.setDefault(tx, environment, 'single', id, now);
      if (input.defaultForBundles) await this.setDefault(tx, environment, 'bundles', id, now);
      if (identity) await writeIdentity(tx, environment, id, identity, now);
    });
    return this.require(environment, id);
  }

  async update(environment: Environment, change: PrinterUpdateInput): Promise<PrinterRecord> {
    const current = await this.require(environment, change.id);
    const address: PrinterAddress = change.address ? PrinterAddressSchema.parse(change.address) : current.address;
    const options = PrinterOptionsSchema.parse({
      ...current.options,
      ...(change.maxFormatsInBuffer !== undefined ? { maxFormatsInBuffer: change.maxFormatsInBuffer } : {}),
      ...(change.gfaEncoding !== undefined ? { gfaEncoding: change.gfaEncoding } : {}),
      // A new address is another printer: what the last check found no longer applies.
      ...(change.address ? { model: null, checkedAt: null, warnings: [] } : {}),
    });
    const orientation: Orientation = change.orientation ?? current.orientation;
    const now = this.clock().toISOString();
    await this.write(environment, async (tx) => {
      await tx.execute('UPDATE printers SET name = $1, kind = $2, address = $3, orientation = $4, options = $5, updated_at = $6 WHERE environment = $7 AND id = $8', [
        change.name ?? current.name,
        address.kind,
        JSON.stringify(address),
        orientation,
        JSON.stringify(withoutIdentity(options)),
        now,
        environment,
        change.id,
      ]);
      for (const [role, wanted] of [['single', change.defaultForSingle], ['bundles', change.defaultForBundles]] as const) {
        if (wanted === true) await this.setDefault(tx, environment, role, change.id, now);
        if (wanted === false) await tx.execute('DELETE FROM printer_defaults WHERE environment = $1 AND bench = $2 AND role = $3 AND printer_id = $4', [environment, this.bench, role, change.id]);
      }
      if (change.address) await writeIdentity(tx, environment, change.id, { dpi: null, printWidthDots: null, serialNumber: null }, null);
    });
    return this.require(environment, change.id);
  }

  /** Keeps what a check found (resolution, width, serial number, model, warnings) with the printer. */
  async recordCheck(
    environment: Environment,
    id: string,
    found: Pick<PrinterOptions, 'dpi' | 'printWidthDots' | 'model' | 'warnings'> & Partial<Pick<PrinterOptions, 'serialNumber'>>,
  ): Promise<PrinterRecord> {
    const current = await this.require(environment, id);
    const now = this.clock().toISOString();
    const options = PrinterOptionsSchema.parse({ ...current.options, ...found, checkedAt: now });
    await this.write(environment, async (tx) => {
      await tx.execute('UPDATE printers SET options = $1, updated_at = $2 WHERE environment = $3 AND id = $4', [JSON.stringify(withoutIdentity(options)), now, environment, id]);
      await writeIdentity(tx, environment, id, { ...found, serialNumber: found.serialNumber ?? null }, now);
    });
    return this.require(environment, id);
  }

  /**
   * A connection found another printer at the address (serial number or resolution changed):
   * what it is now, for every printer row at that address, so the route follows it.
   */
  async recordIdentity(environment: Environment, address: PrinterAddress, found: PrinterIdentityFacts): Promise<PrinterRecord[]> {
    const key = printerAddressKey(address);
    const now = this.clock().toISOString();
    const same = (await this.list(environment)).filter((printer) => printerAddressKey(printer.address) === key);
    await this.write(environment, async (tx) => {
      for (const printer of same) await writeIdentity(tx, environment, printer.id, found, now);
    });
    const after = await this.list(environment);
    return same.flatMap((printer) => after.filter((candidate) => candidate.id === printer.id));
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

  /**
   * Removes a printer. The roles it had (on every bench) go to the printer that takes over
   * (`heirOf`), so no bench is left printing to nothing while its screen says Ready.
   */
  async remove(environment: Environment, id: string): Promise<void> {
    const printers = await this.list(environment);
    requireIn(printers, environment, id);
    const heir = heirOf(printers, id);
    await this.write(environment, async (tx) => {
      if (heir) await tx.execute('UPDATE printer_defaults SET printer_id = $1, updated_at = $2 WHERE environment = $3 AND printer_id = $4', [heir.id, this.clock().toISOString(), environment, id]);
      await tx.execute('DELETE FROM printer_defaults WHERE environment = $1 AND printer_id = $2', [environment, id]);
      await tx.execute('DELETE FROM printers WHERE environment = $1 AND id = $2', [environment, id]);
    });
  }

  /** One writing transaction that tells every bench (after it commits) to read the printers again. */
  private async write(environment: Environment, work: (tx: StoreTransaction) => Promise<void>): Promise<void> {
    this.forget();
    try {
      await this.engine.transaction(async (tx) => {
        await work(tx);
        await tx.notify(printersChannel, environment);
      });
    } finally {
      // A read that ran while the transaction was open may have cached the rows before it.
      this.forget();
    }
  }

  private forget(): void {
    this.generation += 1;
    this.cache.clear();
  }

  private async setDefault(tx: StoreTransaction, environment: Environment, role: PrinterRole, printerId: string, at: string): Promise<void> {
    await tx.execute(
      `INSERT INTO printer_defaults (environment, bench, role, printer_id, updated_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (environment, bench, role) DO UPDATE SET printer_id = excluded.printer_id, updated_at = excluded.updated_at`,
      [environment, this.bench, role, printerId, at],
    );
  }

  private async read(session: StoreSession, environment: Environment): Promise<PrinterRecord[]> {
    const rows = await session.query(selectAll, [environment, this.bench]);
    const printers = rows.flatMap((record) => {
      const row = PrinterRowSchema.safeParse(record);
      // A row this version cannot read (written by hand, or by a newer version) is left out, not fatal.
      const printer = row.success ? toPrinter(row.data) : null;
      return printer ? [printer] : [];
    });
    for (const printer of printers) this.seen.set(`${environment}\u0000${printer.id}`, printer);
    this.lastLists.set(environment, printers);
    return printers;
  }
}

function requireIn(printers: PrinterRecord[], environment: Environment, id: string): PrinterRecord {
  const printer = printers.find((candidate) => candidate.id === id);
  if (!printer) {
    throw new StationError('PRINTER_NOT_FOUND', `There is no printer "${id}" in the ${environment} environment. Choose one in Printers.`, undefined, {
      facts: { subject: 'gone', environment, printerId: id },
    });
  }
  return printer;
}

function defaultIn(printers: PrinterRecord[], role: PrinterRole): PrinterRecord | null {
  return roleHolder(printers, role);
}

async function writeIdentity(tx: StoreTransaction, environment: Environment, id: string, found: PrinterIdentityFacts, at: string | null): Promise<void> {
  await tx.execute('UPDATE printers SET serial_number = $1, dpi = $2, print_width_dots = $3, identified_at = $4 WHERE environment = $5 AND id = $6', [
    found.serialNumber,
    found.dpi,
    found.printWidthDots,
    at,
    environment,
    id,
  ]);
}

/** A random id: 8 characters of 31 (no look-alikes), so two benches adding at once do not collide. */
function newId(): string {
  const bytes = randomBytes(8);
  return `p-${[...bytes].map((byte) => idAlphabet[byte % idAlphabet.length]).join('')}`;
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
