/**
 * A scan's label the printer has taken (the journal says "sent") and is still printing when the
 * station is killed: the scan's run is closed at the next start, and nothing would ever ask the
 * printer about that label again. It must not stay "sent" for good: it becomes uncertain, with
 * its reason, and the next scan of the order asks before printing. Found by the ten-bench test.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeStation, type Station } from '../../../src/main/composition';
import { createLogger } from '../../../src/main/logging/logger';
import type { JournalEntryData, PrintOutcomeData } from '../../../src/shared/contract/printing';
import type { RunningSandbox } from '../../../src/sandbox';
import type { VirtualZebra } from '../../../src/sandbox/printer';
import { memoryKeyStore } from '../../support/station';
import { killStationChildAt, oneScanConfig } from './kill-child-at';
import { startTestSandbox, startZebra, stationOrders, type TodaysOrder } from '../printing-queue/support';


describe('a scan killed after the printer took its label, before the label printed', () => {
  let sandbox: RunningSandbox;
  let zebra: VirtualZebra;
  let port: number;
  let order: TodaysOrder;
  let dataDir: string;

  beforeAll(async () => {
    sandbox = await startTestSandbox({ orders: 200 });
    // Five seconds a label: the printer still holds it when the station is killed.
    ({ zebra, port } = await startZebra({ labelsPerSecond: 0.2 }));
    const [first] = await stationOrders(sandbox);
    if (!first) throw new Error('the sandbox has no orders for today');
    order = first;
    dataDir = mkdtempSync(join(tmpdir(), 'station-unproven-'));
    await killStationChildAt(oneScanConfig(sandbox, dataDir, port, order), 'scan-sent ', 'the scan label sent to the printer', 20_000);
  }, 60_000);

  afterAll(async () => {
    await zebra?.stop();
    await sandbox?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const call = async <T>(station: Station, name: string, input: unknown): Promise<T> => {
    const result = await station.dispatcher.dispatch(name, input, { host: 'web' });
    if (!result.ok) throw new Error(`${name}: ${result.error.code} ${result.error.message}`);
    return result.value as T;
  };

  it('is uncertain with its reason at the next start, the next scan asks first, and the printer printed it once', async () => {
    expect(zebra.printed()).toHaveLength(0);
    const station = await composeStation({
      dataDir,
      host: 'web',
      version: '0.0.0-test',
      logger: createLogger(() => undefined, { level: 'error' }),
      keyStore: memoryKeyStore({ test: { key: sandbox.environments.test.companies[0]?.apiKey ?? '', address: sandbox.environments.test.baseUrl } }),
    });
    try {
      const { entries } = await call<{ entries: JournalEntryData[] }>(station, 'printing.journal', { orderId: order.orderId });
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ state: 'uncertain', reason: expect.stringMatching(/after the printer took this label but before the printer showed it had printed it/) });
      const again = await call<PrintOutcomeData>(station, 'printing.print', { scan: order.orderRef });
      expect(again).toMatchObject({ outcome: 'duplicate', previous: { state: 'uncertain' } });
      // The label was in the printer's buffer: it comes out once, and nothing sent it again.
      expect(await zebra.waitForLabels(1, 15_000)).toHaveLength(1);
    } finally {
      await station.close();
    }
  }, 40_000);
});
