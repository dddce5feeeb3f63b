/**
 * The printer registry: the printers table of the current environment, each row a printer with
 * its kind, its address, the label orientation it is pinned to and whether it is the default for
 * single labels or for bundles (one printer per role at most, enforced by the database).
 */
import { randomBytes } from 'node:crypto';
import type { Orientation } from '../../shared/api/schemas';
import type { Environment } from '../../shared/contract/app';
import { PrinterOptionsSchema, type PrinterAddInput, type PrinterData, type PrinterOptions, type PrinterUpdateInput } from '../../shared/contract/printers';
import { StationError } from '../../shared/errors';
import { describePrinterAddress, PrinterAddressSchema, type PrinterAddress } from '../../shared/zebra/printer-address';
import type { StationDatabase } from '../store/database';

export type PrinterRecord = PrinterData;
export type PrinterRole = 'single' | 'bundles';

export const defaultPrinterOptions: PrinterOptions = {
  maxFormatsInBuffer: 3,
  gfaEncoding: 'compressed',
  dpi: null,
  printWidthDots: null,
  model: null,
  checkedAt: null,
  warnings: [],
};

type PrinterRow = {
  environment: string;
  id: string;
  name: string;
  kind: string;
  address: string;
  orientation: string;
  default_for_single: number;
  default_for_bundles: number;
  options: string;
  created_at: string;
  updated_at: string;
};

const columns = 'environment, id, name, kind, address, orientation, default_for_single, default_for_bundles, options, created_at, updated_at';
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
  private cacheVersion = -1;
  private readonly selectAll;
  private readonly dataVersion;

  constructor(
    private readonly db: StationDatabase,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.selectAll = db.prepare(`SELECT ${columns} FROM printers WHERE environment = ? ORDER BY created_at, id`);
    this.dataVersion = db.prepare('PRAGMA data_version').raw(true);
  }

  list(environment: Environment): PrinterRecord[] {
    const version = (this.dataVersion.get() as [number])[0];
    if (version !== this.cacheVersion) {
      this.cache.clear();
      this.cacheVersion = version;
    }
    let printers = this.cache.get(environment);
    if (!printers) {
      printers = (this.selectAll.all(environment) as PrinterRow[]).flatMap((row) => {
        const printer = toPrinter(row);
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
    if (!printer) throw new StationError('PRINTER_NOT_FOUND', `There is no printer "${id}" in the ${environment} environment. Choose one in Printers.`);
    return printer;
  }

  /** The default printer for a role, or the only printer when there is just one. */
  defaultFor(environment: Environment, role: PrinterRole): PrinterRecord | null {
    const printers = this.list(environment);
    const chosen = printers.find((printer) => (role === 'single' ? printer.defaultForSingle : printer.defaultForBundles));
    if (chosen) return chosen;
    return printers.length === 1 ? (printers[0] ?? null) : null;
  }

  /** The printer asked for, or the role's default; PRINTER_NOT_FOUND with what to do otherwise. */
  choose(environment: Environment, role: PrinterRole, id: string | undefined): PrinterRecord {
    if (id !== undefined) return this.require(environment, id);
    const printer = this.defaultFor(environment, role);
    if (printer) return printer;
    const what = role === 'single' ? 'single labels' : 'bundles';
    throw new StationError(
      'PRINTER_NOT_FOUND',
      this.list(environment).length === 0
        ? 'No printer is set up yet. Add one in Printers.'
        : `No printer is chosen for ${what}. Choose one in Printers.`,
    );
  }

  add(environment: Environment, input: PrinterAddInput, options: Partial<PrinterOptions> = {}): PrinterRecord {
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
          JSON.stringify(merged),
          now,
          now,
        );
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
      ...(change.address ? { dpi: null, printWidthDots: null, model: null, checkedAt: null, warnings: [] } : {}),
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
          JSON.stringify(options),
          this.clock().toISOString(),
          environment,
          change.id,
        );
    })();
    return this.require(environment, change.id);
  }

  /** Keeps what a check found (resolution, width, model, warnings) with the printer. */
  recordCheck(environment: Environment, id: string, found: Pick<PrinterOptions, 'dpi' | 'printWidthDots' | 'model' | 'warnings'>): PrinterRecord {
    const current = this.require(environment, id);
    const options = PrinterOptionsSchema.parse({ ...current.options, ...found, checkedAt: this.clock().toISOString() });
    this.cache.clear();
    this.db
      .prepare('UPDATE printers SET options = ?, updated_at = ? WHERE environment = ? AND id = ?')
      .run(JSON.stringify(options), this.clock().toISOString(), environment, id);
    return this.require(environment, id);
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
    // A row this version cannot read (written by hand, or by a newer version) is left out, not fatal.
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
  return {
    id: row.id,
    environment: row.environment as Environment,
    name: row.name,
    address,
    format: printerFormat(address),
    description: describePrinterAddress(address),
    orientation: row.orientation === 'portrait' ? 'portrait' : 'landscape',
    defaultForSingle: row.default_for_single === 1,
    defaultForBundles: row.default_for_bundles === 1,
    options,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}
