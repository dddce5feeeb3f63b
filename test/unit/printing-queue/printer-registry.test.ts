import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { PrinterRegistry } from '../../../src/main/printing/printers';
import { openDatabase } from '../../../src/main/store/database';

describe('printer registry', () => {
  let registry: PrinterRegistry;

  beforeEach(() => {
    registry = new PrinterRegistry(openDatabase(':memory:'));
  });

  const zebra = (name: string, port = 9100) => ({ name, address: { kind: 'network-zebra' as const, host: '10.0.0.5', port } });

  it('keeps kind, address, pinned orientation and tuning', () => {
    const added = registry.add('test', { ...zebra('Bench 1'), orientation: 'portrait', maxFormatsInBuffer: 5 });
    expect(added).toMatchObject({
      name: 'Bench 1',
      format: 'zpl',
      orientation: 'portrait',
      address: { kind: 'network-zebra', host: '10.0.0.5', port: 9100 },
      description: 'the printer at 10.0.0.5:9100',
      options: { maxFormatsInBuffer: 5, gfaEncoding: 'compressed' },
    });
    expect(registry.add('test', { name: 'A4 office', address: { kind: 'os-queue-pdf', queue: 'Office' } }).format).toBe('pdf');
  });

  it('has one default per role, taken from the other printer when given to a new one', () => {
    const first = registry.add('test', { ...zebra('Bench 1'), defaultForSingle: true, defaultForBundles: true });
    const second = registry.add('test', { ...zebra('Bench 2', 9101), defaultForBundles: true });
    expect(registry.defaultFor('test', 'single')?.id).toBe(first.id);
    expect(registry.defaultFor('test', 'bundles')?.id).toBe(second.id);
    expect(registry.get('test', first.id)?.defaultForBundles).toBe(false);
  });

  it('says what to do when no printer fits', () => {
    expect(() => registry.choose('test', 'single', undefined)).toThrow(/No printer is set up yet/);
    registry.add('test', zebra('Bench 1'));
    // The only printer serves every role.
    expect(registry.choose('test', 'bundles', undefined).name).toBe('Bench 1');
    registry.add('test', zebra('Bench 2', 9101));
    expect(() => registry.choose('test', 'bundles', undefined)).toThrow(/No printer is chosen for bundles/);
    expect(() => registry.choose('test', 'single', 'p-nope')).toThrow(/no printer "p-nope"/);
  });

  it('finds a printer by id or by name, per environment', () => {
    const added = registry.add('test', zebra('Bench 1'));
    expect(registry.find('test', 'bench 1')?.id).toBe(added.id);
    expect(registry.find('test', added.id)?.id).toBe(added.id);
    expect(registry.find('live', 'Bench 1')).toBeNull();
  });

  it('forgets what a check found when the address changes', () => {
    const added = registry.add('test', zebra('Bench 1'));
    registry.recordCheck('test', added.id, { dpi: 300, printWidthDots: 1248, model: 'ZT411', warnings: ['300 dpi'] });
    expect(registry.get('test', added.id)?.options).toMatchObject({ dpi: 300, model: 'ZT411' });
    const moved = registry.update('test', { id: added.id, address: { kind: 'network-zebra', host: '10.0.0.6', port: 9100 } });
    expect(moved.options).toMatchObject({ dpi: null, model: null, checkedAt: null, warnings: [] });
  });

  it('sees a printer another connection added (the CLI next to the app)', () => {
    const folder = mkdtempSync(join(tmpdir(), 'registry-'));
    try {
      const path = join(folder, 'station.db');
      const app = new PrinterRegistry(openDatabase(path));
      const cli = new PrinterRegistry(openDatabase(path));
      expect(app.list('test')).toEqual([]);
      const added = cli.add('test', zebra('Bench 1'));
      expect(app.list('test').map((printer) => printer.id)).toEqual([added.id]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
