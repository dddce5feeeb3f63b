/**
 * Two benches of a warehouse on one shared PostgreSQL store, each a whole station with its own
 * data folder and its own virtual Zebra, scanning the same orders at the same moment through the
 * contract as the screen calls it: each order is printed once in total, and the bench that lost
 * the race answers with the "already printed at Bench 3" question (issue 16, "exactly once").
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { PrintOutcomeData } from '../../../src/shared/contract/printing';
import type { RunningSandbox } from '../../../src/sandbox';
import type { VirtualZebra } from '../../../src/sandbox/printer';
import { PostgresEngine } from '../../../src/main/store/engine/postgres-engine';
import { createTestDatabase, type TestDatabase } from '../../support/postgres-server';
import { postgresConfig } from '../store-engine/engines';
import { createPrintingStation, startTestSandbox, startZebra, stationOrders, type PrintingStation, type TodaysOrder } from './support';

interface Bench {
  name: string;
  engine: PostgresEngine;
  zebra: VirtualZebra;
  station: PrintingStation;
}

describe('two benches, one print journal on the shared store', () => {
  let sandbox: RunningSandbox;
  let database: TestDatabase;
  const benches: Bench[] = [];
  let orders: TodaysOrder[];

  const launch = async (name: string): Promise<Bench> => {
    const engine = await PostgresEngine.open(postgresConfig(database.info));
    const { zebra, port } = await startZebra();
    const station = await createPrintingStation(sandbox, port, { store: engine });
    await station.call('settings.set', { stationName: name });
    const bench = { name, engine, zebra, station };
    benches.push(bench);
    return bench;
  };

  beforeAll(async () => {
    sandbox = await startTestSandbox({ orders: 120 });
    database = await createTestDatabase(inject('postgres'));
    orders = (await stationOrders(sandbox)).filter((order) => order.zplAvailable && order.status === 'draft').slice(0, 6);
  });
  afterAll(async () => {
    for (const bench of benches) {
      await bench.station.dispose();
      await bench.engine.close();
      await bench.zebra.stop();
    }
    await database?.drop();
    await sandbox?.close();
  });

  it('prints each order scanned at both benches at once exactly once; the other bench is asked, naming the bench that printed it', async () => {
    const [bench3, bench7] = [await launch('Bench 3'), await launch('Bench 7')];
    expect(orders.length).toBeGreaterThan(3);
    for (const order of orders) {
      const outcomes = await Promise.all([bench3, bench7].map((bench) => bench.station.call<PrintOutcomeData>('printing.print', { scan: order.orderRef })));
      const printed = outcomes.flatMap((outcome, index) => (outcome.outcome === 'printed' ? [{ outcome, bench: [bench3, bench7][index]! }] : []));
      const asked = outcomes.flatMap((outcome) => (outcome.outcome === 'duplicate' ? [outcome] : []));
      expect(printed, `order ${order.orderRef}`).toHaveLength(1);
      expect(asked, `order ${order.orderRef}`).toHaveLength(1);
      const winner = printed[0]!;
      expect(asked[0]?.previous).toMatchObject({ entryId: winner.outcome.outcome === 'printed' ? winner.outcome.entry.id : -1, stationName: winner.bench.name });
      // Its label came out of the winner's printer (the loser never started a run to print it).
      await winner.bench.station.waitForEvent('printing.label', (entry) => entry.orderId === order.orderId && entry.state === 'printed', 10_000);
    }
    // Once in total: every label either printer printed is a different order.
    const labels = [...bench3.zebra.printed(), ...bench7.zebra.printed()];
    expect(labels).toHaveLength(orders.length);
    // Both benches see the one row of each order in the shared journal.
    for (const order of orders) {
      const { entries } = await bench7.station.call<{ entries: unknown[] }>('printing.journal', { orderId: order.orderId });
      expect(entries).toHaveLength(1);
    }
  });
});
