/**
 * The print queue against a fake Zebra on a fake clock: faults, resuming, the buffer bound,
 * connections that break, printers that restart or are swapped, and the label counter as proof.
 * No real waiting: time moves only when the test moves it.
 */
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/main/logging/logger';
import type { LabelMark, LabelMarkStore } from '../../../src/main/printing/queue/label-marks';
import { PrinterQueue } from '../../../src/main/printing/queue/printer-queue';
import { FakeClock, FakeZebra, RecordingSource, type FakeZebraOptions } from './fake-zebra';

function memoryMarks(): LabelMarkStore & { rows: Map<number, LabelMark> } {
  const rows = new Map<number, LabelMark>();
  return {
    rows,
    record: async (mark) => void rows.set(mark.entryId, { ...mark }),
    get: async (entryId) => rows.get(entryId) ?? null,
  };
}

function setup(options: FakeZebraOptions & { maxFormats?: number; marks?: LabelMarkStore } = {}) {
  const clock = new FakeClock();
  const zebra = new FakeZebra(clock, options);
  const marks = options.marks ?? memoryMarks();
  const queue = new PrinterQueue({
    transport: zebra,
    maxFormatsInBuffer: () => options.maxFormats ?? 3,
    logger: createLogger(() => undefined, { level: 'error' }),
    clock,
    marks,
    timing: { faultPollMs: 500 },
  });
  return { clock, zebra, queue, marks };
}

const ids = (from: number, count: number) => Array.from({ length: count }, (_, index) => from + index);

describe('the print queue, with a fake Zebra and no real waiting', () => {
  it('prints a run in order, never more than the limit in the printer, each label proven on its own connection', async () => {
    const { clock, zebra, queue } = setup({ maxFormats: 3 });
    const run = new RecordingSource(ids(1, 12));
    queue.attach(run);
    await clock.until(() => run.settled === 12);
    expect(run.printedIds).toEqual(ids(1, 12));
    expect(run.uncertainReasons.size).toBe(0);
    expect(zebra.printed).toHaveLength(12);
    expect(zebra.maxBuffered).toBeLessThanOrEqual(3);
    expect(zebra.connectionCount).toBe(1);
  });

  it('the shared store away when a label is about to go: nothing is sent, the queue keeps serving, and the run carries on once the store answers', async () => {
    const { clock, zebra, queue } = setup();
    const scan = new RecordingSource([7], true);
    scan.sendingFailures = 1;
    const run = new RecordingSource(ids(1, 3));
    run.sendingFailures = 2;
    queue.attach(scan);
    queue.attach(run);
    await clock.until(() => run.printedIds.length === 3);
    // The scan is answered "not begun" (the station tells the packer the store is away) and never sent.
    expect(scan.events).toEqual(['not begun 7: The store cannot be reached: connect ECONNREFUSED 127.0.0.1:5432']);
    expect(run.events.filter((event) => event.startsWith('not begun'))).toEqual([
      'not begun 1: The store cannot be reached: connect ECONNREFUSED 127.0.0.1:5432',
      'not begun 1: The store cannot be reached: connect ECONNREFUSED 127.0.0.1:5432',
    ]);
    expect(run.printedIds).toEqual([1, 2, 3]);
    expect(zebra.printed).toHaveLength(3);
  });

  it('a scan to a printer out of paper is asked about first, waits without being sent, and prints once the paper is back', async () => {
    const { clock, zebra, queue } = setup();
    zebra.paperOut = true;
    const scan = new RecordingSource([7], true);
    queue.attach(scan);
    await clock.advance(1);
    expect(scan.events).toEqual(['paused paper-out']);
    expect(zebra.received).toEqual([]);
    await clock.advance(5_000);
    expect(zebra.received).toEqual([]);

    zebra.paperOut = false;
    await clock.until(() => scan.printedIds.length === 1);
    expect(scan.events).toEqual(['paused paper-out', 'resumed', 'sent 7', 'printed 7']);
    expect(zebra.printed).toHaveLength(1);
  });

  it('a fault that shows with the label is told with the label, and a run resumes by itself from the first label not sent', async () => {
    const { clock, zebra, queue } = setup({ maxFormats: 2 });
    const run = new RecordingSource(ids(1, 8));
    queue.attach(run);
    await clock.until(() => run.printedIds.length >= 3);
    zebra.headOpen = true;
    await clock.until(() => run.fault !== null);
    const sentBeforeFault = run.sentIds.length;
    await clock.advance(3_000);
    expect(run.sentIds, 'nothing more is sent while the head is open').toHaveLength(sentBeforeFault);
    zebra.headOpen = false;
    await clock.until(() => run.settled === 8);
    expect(run.printedIds).toEqual(ids(1, 8));
    expect(zebra.printed).toHaveLength(8);
  });

  it('a broken connection with labels in the buffer: the printer kept running (long uptime, same serial), so the drain seen on the new connection is proof', async () => {
    const { clock, zebra, queue } = setup({ msPerLabel: 200, maxFormats: 3 });
    const run = new RecordingSource(ids(1, 3));
    queue.attach(run);
    await clock.until(() => run.sentIds.length === 3);
    zebra.resetConnection();
    await clock.until(() => run.settled === 3);
    expect(run.printedIds).toEqual([1, 2, 3]);
    expect(zebra.connectionCount).toBeGreaterThan(1);
  });

  it('a power cycle with labels in the buffer: the lost labels are uncertain with the reason, the printed ones proven by the counter', async () => {
    const { clock, zebra, queue } = setup({ msPerLabel: 200, maxFormats: 3 });
    const run = new RecordingSource(ids(1, 3));
    queue.attach(run);
    await clock.until(() => run.sentIds.length === 3);
    // The first label comes out, and the power goes before the queue asks again.
    clock.jump(250);
    zebra.catchUp();
    expect(zebra.printed).toHaveLength(1);
    zebra.powerCycle(0);
    await clock.until(() => run.settled === 3);
    expect(run.printedIds, 'proven by the label counter across the restart').toEqual([1]);
    for (const id of [2, 3]) expect(run.uncertainReasons.get(id)).toMatch(/label counter \(1001\) never reached 100[23]/);
    expect(zebra.printed).toHaveLength(1);
  });

  it('after a power cycle, the labels lost with the buffer are judged before a label sent on the new connection can move the counter', async () => {
    const { clock, zebra, queue } = setup({ msPerLabel: 200, maxFormats: 3 });
    const run = new RecordingSource(ids(1, 6));
    queue.attach(run);
    await clock.until(() => run.sentIds.length === 3);
    // The status answer that frees a place in the buffer leaves, then the power goes: the queue's
    // next step is to send label 4, on a new connection, with labels 2 and 3 lost.
    let cycled = false;
    zebra.afterAnswer = (query) => {
      if (cycled || query.kind !== 'host-status' || zebra.printed.length < 1) return;
      cycled = true;
      zebra.powerCycle(0);
    };
    // Reading the counter takes long enough for a label sent on the new connection to come out:
    // counted, it would lift the counter to the count label 2 was due at.
    zebra.beforeAnswer = (query) => {
      if (cycled && query.kind === 'getvar' && query.name === 'odometer.total_label_count') clock.jump(250);
    };
    await clock.until(() => run.settled === 6);
    expect(cycled).toBe(true);
    expect(zebra.printed).toHaveLength(4);
    expect(run.printedIds).toEqual([1, 4, 5, 6]);
    for (const id of [2, 3]) expect(run.uncertainReasons.get(id), `label ${id}`).toMatch(/never reached/);
  });

  it('labels adopted from an earlier life of the station: a restart since they were sent makes them uncertain; the counter proves those that printed', async () => {
    const marks = memoryMarks();
    const { clock, zebra, queue } = setup({ marks, odometer: 500 });
    const sentAtMs = clock.now() - 60_000;
    // What the earlier life kept: due at counts 501 and 502; the printer printed one of them, then restarted.
    marks.record({ entryId: 1, sentAtMs, serial: 'D8J224500001', odometerTarget: 500 });
    marks.record({ entryId: 2, sentAtMs, serial: 'D8J224500001', odometerTarget: 501 });
    zebra.powerCycle(0);
    await clock.advance(10_000);
    const run = new RecordingSource([]);
    queue.adopt(run, [
      { entryId: 1, runId: run.runId, bytes: new Uint8Array(0), formats: 1 },
      { entryId: 2, runId: run.runId, bytes: new Uint8Array(0), formats: 1 },
    ]);
    await clock.until(() => run.settled === 2);
    expect(run.printedIds).toEqual([1]);
    expect(run.uncertainReasons.get(2)).toMatch(/never reached 501/);
  });

  it('an adopted label without a due count: uptime shorter than the time since it was sent means a restart', async () => {
    const { clock, zebra, queue } = setup();
    zebra.powerCycle(0);
    await clock.advance(20_000);
    const run = new RecordingSource([]);
    queue.adopt(run, [
      { entryId: 1, runId: run.runId, bytes: new Uint8Array(0), formats: 1, sentAtMs: clock.now() - 45_000 },
      { entryId: 2, runId: run.runId, bytes: new Uint8Array(0), formats: 1, sentAtMs: clock.now() - 5_000 },
    ]);
    await clock.until(() => run.settled === 2);
    expect(run.uncertainReasons.get(1)).toMatch(/restarted \(on for 20 s, the label reached it 45 s ago\)/);
    // Sent after the printer came back on: its drain is proof.
    expect(run.printedIds).toEqual([2]);
  });

  it('an adopted label without a due count, after a restart shorter than the printer’s whole-second uptime can show: uncertain, not printed', async () => {
    const { clock, zebra, queue } = setup();
    // Off for 300 ms, and asked 200 ms after it came back: it reports 0 s since power-on.
    zebra.powerCycle(300);
    await clock.advance(500);
    const run = new RecordingSource([]);
    queue.adopt(run, [{ entryId: 1, runId: run.runId, bytes: new Uint8Array(0), formats: 1, sentAtMs: clock.now() - 700 }]);
    await clock.until(() => run.settled === 1);
    expect(run.printedIds).toEqual([]);
    expect(run.uncertainReasons.get(1)).toMatch(/may have restarted while this label was in its buffer \(it reports 0 s since power-on/);
  });

  it('a printer swapped for another at the same address: labels of the old one are uncertain, whatever the new counter says', async () => {
    const { clock, zebra, queue } = setup({ msPerLabel: 500, maxFormats: 3 });
    const run = new RecordingSource(ids(1, 3));
    queue.attach(run);
    await clock.until(() => run.sentIds.length === 3);
    zebra.swap('D8J299999999', 1_000_000);
    await clock.until(() => run.settled === 3);
    expect(run.printedIds).toEqual([]);
    for (const id of [1, 2, 3]) expect(run.uncertainReasons.get(id)).toMatch(/printer D8J224500001, but printer D8J299999999 now answers/);
  });

  it('a printer that answers "?" to the restart marks: a drain across a new connection cannot be proven, and says why', async () => {
    const { clock, zebra, queue } = setup({ msPerLabel: 200, noRestartMarks: true });
    const run = new RecordingSource(ids(1, 2));
    queue.attach(run);
    await clock.until(() => run.sentIds.length === 2);
    zebra.resetConnection();
    await clock.until(() => run.settled === 2);
    expect(run.printedIds).toEqual([]);
    expect(run.uncertainReasons.get(1)).toMatch(/does not report its time since power-on \(device\.uptime\)/);
    // On one connection the drain itself is the proof, marks or not.
    const next = new RecordingSource([3, 4]);
    queue.attach(next);
    await clock.until(() => next.settled === 2);
    expect(next.printedIds).toEqual([3, 4]);
  });
});
