/**
 * The embedded sandbox's virtual Zebra as the sandbox environment's printer, so a fresh station
 * prints its very first scan with no setup. It is added when the sandbox environment has no
 * printer at all (a first run, or every printer removed), as the default for single labels and
 * bundles. Its port changes with every start of the sandbox, so the row it was saved as (its id
 * is remembered in settings) follows the port instead of a new row being added each time.
 */
import { z } from 'zod';
import type { Orientation } from '../../shared/api/schemas';
import type { PrinterAddress } from '../../shared/zebra/printer-address';
import type { SettingsRepository } from '../store';
import type { PrinterRecord, PrinterRegistry } from './printers';

export const sandboxPrinterName = 'Virtual Zebra (sandbox)';
/** The service's default orientation, and the one printers.add assumes. */
export const sandboxPrinterOrientation: Orientation = 'landscape';

const rememberedKey = 'virtualPrinterId';
const RememberedSchema = z.string().min(1).nullable();

export interface SandboxPrinterDeps {
  printers: PrinterRegistry;
  settings: SettingsRepository;
  /** A printer row changed address: its queue must follow (the print service's printerChanged). */
  changed?(printer: PrinterRecord): void;
}

export interface SandboxPrinterSync {
  /**
   * Points the virtual Zebra's row at `where` (adding it on a first run). Returns the row, or null
   * when the sandbox environment has other printers and none is the virtual Zebra's.
   */
  sync(where: { host: string; port: number }): Promise<PrinterRecord | null>;
}

export function createSandboxPrinterSync(deps: SandboxPrinterDeps): SandboxPrinterSync {
  const { printers, settings } = deps;
  // Checked before every print on the sandbox: the id, once known, is not read again.
  let knownId: string | null = null;
  // One at a time: several calls ready the sandbox at once when a page connects, and two of them
  // moving (or adding) the row together would leave it at a stale port, or add it twice.
  let queue: Promise<unknown> = Promise.resolve();
  return {
    sync(where) {
      const next = queue.then(() => syncNow(where));
      queue = next.catch(() => undefined);
      return next;
    },
  };

  async function syncNow({ host, port }: { host: string; port: number }): Promise<PrinterRecord | null> {
    const address: PrinterAddress = { kind: 'network-zebra', host, port };
    const id = (knownId ??= settings.read('sandbox', rememberedKey, RememberedSchema, null));
    const existing = id === null ? null : await printers.get('sandbox', id);
    if (existing) {
      if (existing.address.kind === 'network-zebra' && existing.address.host === host && existing.address.port === port) return existing;
      const moved = await printers.update('sandbox', { id: existing.id, address });
      deps.changed?.(moved);
      return moved;
    }
    // Someone set up their own printers for the sandbox: theirs stay the defaults.
    if ((await printers.list('sandbox')).length > 0) return null;
    const added = await printers.add('sandbox', {
      name: sandboxPrinterName,
      address,
      orientation: sandboxPrinterOrientation,
      defaultForSingle: true,
      defaultForBundles: true,
    });
    settings.write('sandbox', rememberedKey, added.id);
    knownId = added.id;
    return added;
  }
}
