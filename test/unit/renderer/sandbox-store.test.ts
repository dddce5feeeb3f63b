import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { IndexedOrderData } from '../../../src/shared/contract/orders';
import { createSandboxStore } from '../../../src/renderer/src/state/sandbox-store';
import { ok, scriptedStation } from './scripted-station';

const order = (orderRef: string): IndexedOrderData => ({
  environment: 'sandbox',
  orderId: `id-${orderRef}`,
  orderRef,
  barcode: `DT-${orderRef}`,
  bundleId: 'BND-1',
  recipient: 'Anouk Bakker',
  status: 'draft',
  statusUpdatedAt: null,
  source: 'created',
});
const label = (index: number) => ({ index, printedAt: 1_763_700_000_000 + index, zpl: `^XA^BY3^BCN,200,N,N,N,A^FDDT${index}^FS^XZ`, barcode: `DT${index}` });

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('the first-run panel’s view of the sandbox', () => {
  it('asks for samples and the virtual printer’s labels when shown, then follows printing at most once per interval', async () => {
    let printed = [label(0)];
    const bench = scriptedStation({
      'orders.samples': ({ limit }) => ok({ orders: [order('NW-1'), order('NW-2')].slice(0, limit) }),
      'sandbox.printedLabels': () => ok({ labels: printed }),
    });
    const store = createSandboxStore({ station: bench.station, sampleCount: 4, printedLimit: 12, refreshMs: 500 });
    const stop = store.getState().follow();
    await vi.advanceTimersByTimeAsync(0);
    expect(store.getState().samples?.map((sample) => sample.orderRef)).toEqual(['NW-1', 'NW-2']);
    expect(store.getState().printed).toEqual([label(0)]);
    expect(bench.named('orders.samples')[0]?.input).toEqual({ limit: 4 });
    expect(bench.named('sandbox.printedLabels')[0]?.input).toEqual({ limit: 12 });

    // A burst of events (a run printing) is one refresh, after the interval.
    printed = [label(2), label(1), label(0)];
    const progress = { runId: 'r', kind: 'bundles', printerId: 'p', state: 'running', pauseReason: null, counts: { total: 3, queued: 0, fetched: 0, sent: 0, printed: 3, failed: 0, uncertain: 0 }, done: 3, total: 3, at: '2025-11-21T10:00:00.000Z' } as const;
    for (let i = 0; i < 10; i += 1) bench.emit('printing.progress', progress);
    await vi.advanceTimersByTimeAsync(499);
    expect(bench.named('sandbox.printedLabels')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(bench.named('sandbox.printedLabels')).toHaveLength(2);
    expect(store.getState().printed?.map((kept) => kept.index)).toEqual([2, 1, 0]);

    // Off screen: no more listening, no more asking.
    stop();
    expect(bench.listenerCount('printing.progress')).toBe(0);
    bench.emit('printing.progress', progress);
    await vi.advanceTimersByTimeAsync(2000);
    expect(bench.named('sandbox.printedLabels')).toHaveLength(2);
  });

  it('holds a refresh that falls due while a scan is in hand until the scan is answered', async () => {
    const bench = scriptedStation({
      'orders.samples': () => ok({ orders: [order('NW-1')] }),
      'sandbox.printedLabels': () => ok({ labels: [label(0)] }),
    });
    let scanInHand = false;
    const store = createSandboxStore({ station: bench.station, refreshMs: 500, busy: () => scanInHand });
    const stop = store.getState().follow();
    await vi.advanceTimersByTimeAsync(0);
    expect(bench.named('sandbox.printedLabels')).toHaveLength(1);

    const entry = { id: 1, state: 'printed' } as unknown as Parameters<typeof bench.emit<'printing.label'>>[1];
    bench.emit('printing.label', entry);
    scanInHand = true;
    await vi.advanceTimersByTimeAsync(1200);
    expect(bench.named('sandbox.printedLabels')).toHaveLength(1);
    expect(bench.named('orders.samples')).toHaveLength(1);
    scanInHand = false;
    await vi.advanceTimersByTimeAsync(500);
    expect(bench.named('sandbox.printedLabels')).toHaveLength(2);
    expect(bench.named('orders.samples')).toHaveLength(2);
    stop();
  });

  it('keeps the reason when the station is not on its sandbox', async () => {
    const bench = scriptedStation({
      'sandbox.printedLabels': () => ({ ok: false, error: { code: 'NOT_CONFIGURED', message: 'not on the embedded sandbox' } }),
    });
    const store = createSandboxStore({ station: bench.station });
    await store.getState().refreshPrinted();
    expect(store.getState().printed).toBeNull();
    expect(store.getState().printedError?.code).toBe('NOT_CONFIGURED');
  });
});
