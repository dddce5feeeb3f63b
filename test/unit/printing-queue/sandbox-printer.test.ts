import { beforeEach, describe, expect, it } from 'vitest';
import type { PrinterRecord } from '../../../src/main/printing/printers';
import { PrinterRegistry } from '../../../src/main/printing/printers';
import { createSandboxPrinterSync, sandboxPrinterName, type SandboxPrinterSync } from '../../../src/main/printing/sandbox-printer';
import { openDatabase } from '../../../src/main/store/database';
import { SqliteEngine } from '../../../src/main/store/engine/sqlite-engine';
import { SettingsRepository } from '../../../src/main/store/settings-repository';

describe('the virtual Zebra as the sandbox’s printer', () => {
  let registry: PrinterRegistry;
  let sync: SandboxPrinterSync;
  let changed: PrinterRecord[];

  beforeEach(() => {
    const db = openDatabase(':memory:');
    registry = new PrinterRegistry(new SqliteEngine(db, false), { bench: 'bench-a' });
    changed = [];
    sync = createSandboxPrinterSync({ printers: registry, settings: new SettingsRepository(db), changed: (printer) => changed.push(printer) });
  });

  it('is added on a first run as the default for single labels and bundles, landscape', async () => {
    const added = await sync.sync({ host: '127.0.0.1', port: 40001 });
    expect(await registry.list('sandbox')).toEqual([added]);
    expect(added).toMatchObject({
      name: sandboxPrinterName,
      address: { kind: 'network-zebra', host: '127.0.0.1', port: 40001 },
      orientation: 'landscape',
      defaultForSingle: true,
      defaultForBundles: true,
    });
    expect(await registry.list('test')).toEqual([]);
  });

  it('follows the port of each launch in the same row, keeping what people changed', async () => {
    const added = (await sync.sync({ host: '127.0.0.1', port: 40001 }))!;
    await registry.update('sandbox', { id: added.id, name: 'Training printer', orientation: 'portrait' });
    expect((await sync.sync({ host: '127.0.0.1', port: 40001 }))?.updatedAt).toBe((await registry.get('sandbox', added.id))?.updatedAt);
    expect(changed).toEqual([]);
    const moved = await sync.sync({ host: '127.0.0.1', port: 40002 });
    expect(await registry.list('sandbox')).toHaveLength(1);
    expect(moved).toMatchObject({ id: added.id, name: 'Training printer', orientation: 'portrait', address: { port: 40002 } });
    expect(changed.map((printer) => printer.address)).toEqual([{ kind: 'network-zebra', host: '127.0.0.1', port: 40002 }]);
  });

  it('leaves a sandbox with its own printers alone, and comes back once none is left', async () => {
    const own = await registry.add('sandbox', { name: 'Bench 1', address: { kind: 'network-zebra', host: '10.0.0.5', port: 9100 }, defaultForSingle: true });
    expect(await sync.sync({ host: '127.0.0.1', port: 40001 })).toBeNull();
    expect(await registry.list('sandbox')).toEqual([own]);
    await registry.remove('sandbox', own.id);
    expect(await sync.sync({ host: '127.0.0.1', port: 40003 })).toMatchObject({ name: sandboxPrinterName, address: { port: 40003 } });
  });

  it('readied by several calls at once (a page connecting), adds one row and ends at the new port', async () => {
    const [first, second, third] = await Promise.all([1, 2, 3].map(() => sync.sync({ host: '127.0.0.1', port: 40001 })));
    expect(await registry.list('sandbox')).toHaveLength(1);
    expect(new Set([first?.id, second?.id, third?.id]).size).toBe(1);
    // The next launch: the sandbox's printer listens elsewhere, and again several calls ready it at once.
    await Promise.all([1, 2, 3].map(() => sync.sync({ host: '127.0.0.1', port: 40002 })));
    expect((await registry.list('sandbox')).map((printer) => printer.address)).toEqual([{ kind: 'network-zebra', host: '127.0.0.1', port: 40002 }]);
    expect(changed).toHaveLength(1);
  });
});
