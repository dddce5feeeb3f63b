/**
 * Two benches of a warehouse on one shared PostgreSQL store, each a whole station (its own data
 * folder, its own engine on the store) with the same network Zebra: a print at bench B while bench
 * A drives the printer is refused with bench A named, and nothing of it reaches the printer; once
 * bench A stops, bench B prints.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PostgresEngine } from '../../../src/main/store/engine/postgres-engine';
import type { PrinterData } from '../../../src/shared/contract/printers';
import type { RunningSandbox } from '../../../src/sandbox';
import type { VirtualZebra } from '../../../src/sandbox/printer';
import { createTestDatabase, type TestDatabase } from '../../support/postgres-server';
import { waitUntil } from '../../support/wait-until';
import { postgresConfig } from '../store-engine/engines';
import { createPrintingStation, startTestSandbox, startZebra, type PrintingStation } from './support';

describe('two benches, one Zebra, on the shared store', () => {
  let database: TestDatabase;
  let sandbox: RunningSandbox;
  let zebra: VirtualZebra;
  let port: number;
  const engines: PostgresEngine[] = [];
  const stations: PrintingStation[] = [];

  const bench = async (name: string): Promise<PrintingStation> => {
    const engine = await PostgresEngine.open(postgresConfig(database.info));
    engines.push(engine);
    const station = await createPrintingStation(sandbox, port, { store: engine }, {}, 'test');
    stations.push(station);
    await station.call('settings.set', { stationName: name });
    return station;
  };

  beforeAll(async () => {
    database = await createTestDatabase(inject('postgres'));
    sandbox = await startTestSandbox({ orders: 10 });
    ({ zebra, port } = await startZebra());
  });
  afterAll(async () => {
    for (const station of stations) await station.dispose();
    for (const engine of engines) await engine.close();
    await zebra?.stop();
    await sandbox?.close();
    await database?.drop();
  });

  it("refuses a print at bench B to the printer bench A is driving, naming bench A, and sends nothing; bench B prints once bench A stops", async () => {
    const benchA = await bench('Bench 3');
    const benchB = await bench('Bench 7');
    // Both benches see both printer records (each added its own for the same Zebra, each its own default).
    const listed = await benchB.call<{ printers: PrinterData[] }>('printers.list', {});
    expect(listed.printers.map((printer) => printer.id).sort()).toEqual([benchA.printerId, benchB.printerId].sort());
    expect(listed.printers.find((printer) => printer.defaultForSingle)?.id).toBe(benchB.printerId);

    await benchA.call('printers.test', { id: benchA.printerId });
    await waitUntil(() => zebra.printed().length === 1, "bench A's test label printed");
    const bytesBefore = zebra.received().length;

    // Bench A printed moments ago and keeps the printer (its lease): bench B's test label is refused.
    const refused = await benchB.station.dispatcher.dispatch('printers.test', { id: benchB.printerId }, { host: 'web' });
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.error.code).toBe('PRINTER_LEASED');
    expect(refused.error.facts).toMatchObject({ benchName: 'Bench 3', printerName: 'Bench Zebra' });
    expect(typeof refused.error.facts?.since).toBe('string');
    // Refused before anything was queued: not a byte of it went to the printer.
    expect(zebra.received().length).toBe(bytesBefore);
    expect(zebra.printed()).toHaveLength(1);

    // Bench A stops: its lease is given back (not left to expire), and bench B prints at once.
    await benchA.dispose();
    stations.splice(stations.indexOf(benchA), 1);
    await benchB.call('printers.test', { id: benchB.printerId });
    await waitUntil(() => zebra.printed().length === 2, "bench B's test label printed");
  });
});
