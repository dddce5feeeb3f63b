/**
 * The fault matrix: a 200-label bundle run to a virtual Zebra over real TCP, with the labels
 * fetched from the sandbox over real HTTP, through each fault a bench printer has. Whatever the
 * fault, every label comes out exactly once according to the printer's own record, except labels
 * the run lists as uncertain; and the journal says the same as the printer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntryData, RunSummaryData } from '../../../src/shared/contract/printing';
import type { RunningSandbox } from '../../../src/sandbox';
import type { VirtualZebra, VirtualZebraOptions } from '../../../src/sandbox/printer';
import type { StationOptions } from '../../../src/main/composition';
import {
  barcodeOfZpl,
  bundlesWithLabels,
  createPrintingStation,
  startTestSandbox,
  startZebra,
  stationOrders,
  type PrintingStation,
  type TodaysOrder,
} from './support';
import { waitUntil } from '../../support/wait-until';

const LABELS = 200;
const MAX_IN_BUFFER = 3;

interface Case {
  name: string;
  zebra?: VirtualZebraOptions;
  station?: Partial<StationOptions>;
  /** Before the run starts. */
  before?(zebra: VirtualZebra): Promise<void>;
  /** While the run goes on. */
  during?(zebra: VirtualZebra, station: PrintingStation, runId: string): Promise<void>;
  /** The fault the run must have paused for (kind), when it pauses. */
  pausedFor?: string;
  /**
   * lost-with-buffer: some labels were lost with the printer's buffer; each of those is uncertain and never printed.
   * printer-replaced: labels that were in the old printer's buffer are uncertain (printed or not: the old printer is gone).
   */
  uncertain: 'none' | 'exactly-one-not-printed' | 'lost-with-buffer' | 'printer-replaced' | 'any';
  /**
   * Labels the journal marks as a possible second copy after a fault (never certain: nothing
   * documented names the label under the head). none; cut-one: the printer cut one label short and
   * printed it again (^JZY), marked with at most the label next to it (the printer's buffer count
   * cannot tell the two apart); near-the-head: a fault that may or may not hit a label mid-way, at
   * most two marked, next to each other; some-possible: a printer silent in the fault, any label in
   * its buffer then.
   */
  secondCopies?: 'none' | 'cut-one' | 'near-the-head' | 'some-possible';
  /** More to check on the printer after the run. */
  after?(zebra: VirtualZebra): void;
}

const waitForPause = (station: PrintingStation, runId: string, kind: string) =>
  station.waitForEvent('printing.progress', (progress) => progress.runId === runId && progress.state === 'paused' && progress.pauseReason?.fault?.kind === kind, 60_000);

/**
 * The fault stays on until the station, paused on it, has asked the printer about it again (its
 * question reached the printer), then it is cleared.
 */
const askedAgainDuring = async (zebra: VirtualZebra) => {
  const before = zebra.stats().bytesReceived;
  await waitUntil(() => zebra.stats().bytesReceived > before, 'the station asking the paused printer again', 30_000, 5);
};

const cases: Case[] = [
  {
    name: 'refused connection',
    before: (zebra) => zebra.refuseConnections(true).then(() => undefined),
    async during(zebra, station, runId) {
      // Nothing reaches a printer that refuses connections: the fault is cleared once the station paused on it.
      await waitForPause(station, runId, 'offline');
      await zebra.refuseConnections(false);
    },
    pausedFor: 'offline',
    uncertain: 'none',
  },
  {
    name: 'connection dropped mid-format',
    async during(zebra) {
      await zebra.waitForLabels(50, 20_000);
      await zebra.setFaults({ dropConnectionAfterBytes: 300 });
    },
    uncertain: 'exactly-one-not-printed',
  },
  {
    name: 'paper out after 60 labels',
    before: (zebra) => zebra.setFaults({ paperOutAfterLabels: 60 }).then(() => undefined),
    async during(zebra, station, runId) {
      await waitForPause(station, runId, 'paper-out');
      await askedAgainDuring(zebra);
      await zebra.setFaults({ paperOut: false });
    },
    pausedFor: 'paper-out',
    uncertain: 'none',
    // The paper runs out between two labels here. The last label out and the next in the buffer may
    // have been under the head for all the station can tell, so they may be named "may have come out
    // twice", never certain.
    secondCopies: 'near-the-head',
  },
  {
    name: 'head open',
    async during(zebra, station, runId) {
      await zebra.waitForLabels(40, 20_000);
      await zebra.setHeadOpen(true);
      await waitForPause(station, runId, 'head-open');
      await askedAgainDuring(zebra);
      await zebra.setHeadOpen(false);
    },
    pausedFor: 'head-open',
    uncertain: 'none',
    // At 100 labels/s the head almost always opens mid-label; the cut label comes out again.
    secondCopies: 'near-the-head',
  },
  {
    name: 'head open mid-label (^JZY: the cut label is printed again, and the journal says it may have come out twice)',
    zebra: { labelsPerSecond: 20 },
    async during(zebra, station, runId) {
      await zebra.waitForLabels(40, 20_000);
      await waitUntil(() => zebra.state().labelInProgress, 'a label coming out of the printer', 20_000, 1);
      await zebra.setHeadOpen(true);
      await waitForPause(station, runId, 'head-open');
      await zebra.setHeadOpen(false);
    },
    pausedFor: 'head-open',
    uncertain: 'none',
    secondCopies: 'cut-one',
    after(zebra) {
      expect(zebra.printed().filter((label) => label.reprint)).toHaveLength(1);
    },
  },
  {
    name: 'paper out mid-label with ^JZN (the cut label stands, nothing printed twice)',
    zebra: { labelsPerSecond: 20 },
    before: async (zebra) => zebra.setReprintAfterError(false),
    async during(zebra, station, runId) {
      await zebra.waitForLabels(40, 20_000);
      await waitUntil(() => zebra.state().labelInProgress, 'a label coming out of the printer', 20_000, 1);
      await zebra.setPaperOut(true);
      await waitForPause(station, runId, 'paper-out');
      await zebra.setPaperOut(false);
    },
    pausedFor: 'paper-out',
    uncertain: 'none',
    secondCopies: 'none',
    after(zebra) {
      expect(zebra.printed().filter((label) => label.cutShortBy === 'paperOut')).toHaveLength(1);
      expect(zebra.printed().some((label) => label.reprint)).toBe(false);
    },
  },
  {
    name: 'head open on a printer silent to ~HS in faults (the fault named through ~HQES)',
    zebra: { faults: { silentHostStatusInFaults: true } },
    station: {
      printing: {
        queueTiming: { faultPollMs: 100 },
        progressIntervalMs: 50,
        transports: { network: { queryTimeoutMs: 300, connectTimeoutMs: 1000 } },
      },
    },
    async during(zebra, station, runId) {
      await zebra.waitForLabels(40, 20_000);
      await zebra.setHeadOpen(true);
      await waitForPause(station, runId, 'head-open');
      await askedAgainDuring(zebra);
      await zebra.setHeadOpen(false);
    },
    pausedFor: 'head-open',
    // A label whose confirming ~HS met the silence cannot be proven read: a question, never a loss.
    uncertain: 'any',
    // ~HS is silent in the fault, so the printer cannot say which of the labels in its buffer was cut.
    secondCopies: 'some-possible',
  },
  {
    name: 'a printer that serves one connection at a time',
    zebra: { faults: { oneConnectionAtATime: true } },
    uncertain: 'none',
  },
  {
    name: 'printer paused',
    async during(zebra, station, runId) {
      await zebra.waitForLabels(40, 20_000);
      await zebra.setPaused(true);
      await waitForPause(station, runId, 'paused');
      await askedAgainDuring(zebra);
      await zebra.setPaused(false);
    },
    pausedFor: 'paused',
    uncertain: 'none',
  },
  {
    name: 'slow printer with a full buffer',
    // Slower than the station sends on a loaded 2-core machine running other suites beside it.
    zebra: { labelsPerSecond: 25, receiveBufferBytes: 3072 },
    uncertain: 'none',
    after(zebra) {
      // The printer really held the connection back (TCP backpressure), and the run still kept it busy.
      expect(zebra.stats().readsPaused).toBeGreaterThan(0);
    },
  },
  {
    name: 'status query with no answer',
    station: {
      printing: {
        queueTiming: { faultPollMs: 100 },
        progressIntervalMs: 50,
        transports: { network: { queryTimeoutMs: 300, connectTimeoutMs: 1000 } },
      },
    },
    async during(zebra, station, runId) {
      await zebra.waitForLabels(40, 20_000);
      await zebra.ignoreStatusQueries(true);
      await waitForPause(station, runId, 'offline');
      await askedAgainDuring(zebra);
      await zebra.ignoreStatusQueries(false);
    },
    pausedFor: 'offline',
    uncertain: 'any',
  },
  {
    name: 'already out of paper when the run starts',
    before: (zebra) => zebra.setPaperOut(true).then(() => undefined),
    async during(zebra, station, runId) {
      await waitForPause(station, runId, 'paper-out');
      expect(zebra.stats().formatsReceived, 'nothing sent to a printer known to be out of paper').toBeLessThanOrEqual(MAX_IN_BUFFER);
      await zebra.setPaperOut(false);
    },
    pausedFor: 'paper-out',
    uncertain: 'none',
  },
  {
    name: 'power cycle with formats buffered',
    // Slow enough that the buffer is full when the power goes.
    zebra: { labelsPerSecond: 40 },
    async during(zebra) {
      await zebra.waitForLabels(50, 20_000);
      // On a loaded machine the station may not have refilled the buffer yet: the power goes with formats in it.
      await waitUntil(() => zebra.state().status.formatsInBuffer >= 1, 'formats in the printer’s buffer', 20_000, 2);
      await zebra.powerCycle({ offMs: 300 });
    },
    uncertain: 'lost-with-buffer',
    after(zebra) {
      expect(zebra.discarded().some((format) => format.reason === 'power-cycle')).toBe(true);
    },
  },
  {
    name: 'printer swapped for another model mid-run',
    zebra: { labelsPerSecond: 40 },
    async during(zebra) {
      await zebra.waitForLabels(50, 20_000);
      // A counter far above the run's: only the serial number tells the printers apart.
      await zebra.replaceWith({ model: 'ZD621-203dpi', odometerStart: 90_000 });
    },
    uncertain: 'printer-replaced',
  },
];

describe('fault matrix: 200-label bundle runs to a virtual Zebra', () => {
  let sandbox: RunningSandbox;
  let bundleIds: string[];
  let runOrders: TodaysOrder[];

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    ({ bundleIds, orders: runOrders } = bundlesWithLabels(await stationOrders(sandbox), LABELS));
  });

  afterAll(async () => {
    await sandbox?.close();
  });

  it.concurrent.each(cases)('$name: every label printed once, uncertain ones listed, journal agrees with the printer', async (testCase) => {
    const { zebra, port } = await startZebra({ labelsPerSecond: 100, ...testCase.zebra });
    const station = await createPrintingStation(sandbox, port, testCase.station ?? {}, { maxFormatsInBuffer: MAX_IN_BUFFER });
    try {
      await testCase.before?.(zebra);
      const started = await station.call<RunSummaryData>('printing.printBundles', { bundleIds });
      expect(started.counts.total).toBe(LABELS);
      expect(started.bundles.every((bundle) => bundle.route === 'zpl-per-order')).toBe(true);
      const during = testCase.during?.(zebra, station, started.runId);
      const summary = await station.waitForEvent('printing.finished', (finished) => finished.runId === started.runId, 120_000);
      await during;

      if (testCase.pausedFor) {
        const paused = station.events.find(
          (event) => event.name === 'printing.progress' && (event.payload as { pauseReason: { fault: { kind: string } | null } | null }).pauseReason?.fault?.kind === testCase.pausedFor,
        );
        expect(paused, 'the run paused with the fault as its reason').toBeDefined();
      }

      // The printer's own record, by parcel barcode.
      const printedCount = new Map<string, number>();
      for (const label of zebra.printed()) {
        const barcode = barcodeOfZpl(label.zpl) ?? '(none)';
        printedCount.set(barcode, (printedCount.get(barcode) ?? 0) + 1);
      }
      const uncertain = new Set(summary.uncertain.map((entry) => entry.barcode));
      const secondCopies = new Map(summary.secondCopies.map((entry) => [entry.barcode, entry.secondCopy]));
      const expected = new Set(runOrders.map((order) => order.barcode));
      for (const barcode of printedCount.keys()) expect(expected.has(barcode), `printed something not in the run: ${barcode}`).toBe(true);
      for (const order of runOrders) {
        const count = printedCount.get(order.barcode) ?? 0;
        const second = secondCopies.get(order.barcode);
        if (second?.certainty === 'certain') expect(count, `${order.orderRef}: the journal says two copies`).toBe(2);
        else if (second) expect(count, `${order.orderRef}: the journal says maybe two copies`).toBeGreaterThanOrEqual(uncertain.has(order.barcode) ? 0 : 1);
        else if (uncertain.has(order.barcode)) expect(count).toBeLessThanOrEqual(1);
        else expect(count, `${order.orderRef} printed ${count} times`).toBe(1);
        expect(count, `${order.orderRef} printed ${count} times`).toBeLessThanOrEqual(2);
      }

      // The journal agrees with the printer: labels out, copies, states.
      const { entries } = await station.call<{ entries: JournalEntryData[] }>('printing.run', { runId: started.runId });
      expect(entries).toHaveLength(LABELS);
      for (const entry of entries) {
        const count = printedCount.get(entry.barcode ?? '') ?? 0;
        if (entry.state === 'printed') expect(count, `${entry.orderRef}: copies out`).toBe(entry.secondCopy?.certainty === 'certain' ? 2 : entry.secondCopy ? count : 1);
        else expect(entry.state).toBe('uncertain');
      }
      const twice = [...printedCount.values()].filter((count) => count === 2).length;
      const reprintedByPrinter = zebra.printed().filter((label) => label.reprint).length;
      expect(twice, 'every label that came out twice is one the printer reprinted after a fault').toBe(reprintedByPrinter);
      expect(summary.secondCopies.length, 'every label the printer reprinted is named by the journal').toBeGreaterThanOrEqual(reprintedByPrinter);
      const secondCopiesExpected = testCase.secondCopies ?? 'none';
      if (secondCopiesExpected === 'none') expect(summary.secondCopies).toEqual([]);
      for (const entry of summary.secondCopies) expect(entry.secondCopy?.certainty, `${entry.barcode}: nothing documented shows a second copy`).toBe('possible');
      if (secondCopiesExpected === 'cut-one' || secondCopiesExpected === 'near-the-head') {
        // At most the label under the head and the one next to it, in the order the printer printed them.
        const order = [...printedCount.keys()];
        const places = summary.secondCopies.map((entry) => order.indexOf(entry.barcode ?? '')).sort((a, b) => a - b);
        expect(places.length).toBeLessThanOrEqual(2);
        if (places.length === 2) expect((places[1] as number) - (places[0] as number), 'the two marked labels are next to each other').toBe(1);
      }
      if (secondCopiesExpected === 'cut-one') {
        const reprinted = zebra.printed().filter((label) => label.reprint).map((label) => barcodeOfZpl(label.zpl));
        expect(summary.secondCopies.map((entry) => entry.barcode)).toEqual(expect.arrayContaining(reprinted));
      }
      // Every label in the buffer, the one whose confirmation met the silence and the one that left last.
      if (secondCopiesExpected === 'some-possible') expect(summary.secondCopies.length).toBeLessThanOrEqual(MAX_IN_BUFFER + 2);
      expect(summary.counts.printed + summary.counts.uncertain).toBe(LABELS);
      expect(summary.state).toBe('finished');
      expect(zebra.stats().maxFormatsInBuffer).toBeLessThanOrEqual(MAX_IN_BUFFER);

      testCase.after?.(zebra);
      if (testCase.uncertain === 'none') expect(summary.uncertain).toEqual([]);
      if (testCase.uncertain === 'lost-with-buffer') {
        // Every label the restart lost is uncertain (above: none of them is journaled printed). A
        // label that came out just before the restart may be uncertain too when no exact label
        // count was taken (docs/printing-queue.md, "Proof of printing"): a question, never a loss.
        const lost = zebra.discarded().filter((format) => format.reason === 'power-cycle').map((format) => barcodeOfZpl(format.zpl));
        for (const barcode of lost) expect(uncertain.has(barcode ?? ''), `${barcode} was lost with the buffer and is not listed uncertain`).toBe(true);
        expect(summary.uncertain.length).toBeLessThanOrEqual(MAX_IN_BUFFER + 1);
        for (const entry of summary.uncertain) expect(entry.reason).toMatch(/restarted|label counter .* never reached|broke/);
      }
      if (testCase.uncertain === 'printer-replaced') {
        expect(summary.uncertain.length).toBeGreaterThanOrEqual(1);
        expect(summary.uncertain.length).toBeLessThanOrEqual(MAX_IN_BUFFER + 1);
        for (const entry of summary.uncertain) expect(entry.reason).toMatch(/printer VZ\d+ now answers at its address|broke/);
      }
      if (testCase.uncertain === 'exactly-one-not-printed') {
        expect(summary.uncertain).toHaveLength(1);
        const [lost] = summary.uncertain as [JournalEntryData];
        expect(printedCount.get(lost.barcode ?? '') ?? 0).toBe(0);
        expect(zebra.discarded().map((format) => format.reason)).toEqual(['connection-dropped']);
        // The person at the bench says it did not come out: it is printed again, once.
        const decided = await station.call<{ reprintRun: RunSummaryData | null }>('printing.decide', { entryId: lost.id, decision: 'print-again', operator: 'Sam' });
        expect(decided.reprintRun).not.toBeNull();
        await station.waitForEvent('printing.finished', (finished) => finished.runId === decided.reprintRun?.runId, 10_000);
        expect(zebra.printed().filter((label) => barcodeOfZpl(label.zpl) === lost.barcode)).toHaveLength(1);
      }
    } finally {
      await station.dispose();
      await zebra.stop();
    }
    // Fourteen 200-label runs at once on a shared machine.
  }, 180_000);
});
