import { describe, expect, it } from 'vitest';
import type { ReprintReason } from '../../../src/renderer/src/scan/commands';
import type { LabelUpdate, ScanOutcome, ScanService } from '../../../src/renderer/src/scan/scan-outcome';
import { createScanStore } from '../../../src/renderer/src/state/scan-store';
import type { SoundKind } from '../../../src/renderer/src/sound/tones';

const printedAt = '2025-11-21T10:31:00.000Z';

/** A scan service answering from a table, as the station would for these orders. */
function tableService(table: Record<string, ScanOutcome>) {
  const calls: string[] = [];
  const reprints: { scan: string; reason: ReprintReason }[] = [];
  const cancelled: string[] = [];
  const resumed: string[] = [];
  const labelListeners = new Set<(update: LabelUpdate) => void>();
  const service: ScanService = {
    prepare: () => undefined,
    print: async (scan) => {
      calls.push(scan);
      return table[scan] ?? { kind: 'failed', scan, error: { code: 'ORDER_NOT_FOUND', message: `No order ${scan}` } };
    },
    reprint: async (request) => {
      reprints.push(request);
      return { kind: 'printed', label: { orderRef: request.scan, recipient: 'J. Jansen', printerName: 'Bench 3 Zebra', printedAt, scan: request.scan } };
    },
    cancel: async (runId) => void cancelled.push(runId),
    resume: async (runId) => void resumed.push(runId),
    onLabel: (listener) => {
      labelListeners.add(listener);
      return () => labelListeners.delete(listener);
    },
  };
  /** The station's printing.label event, as it would arrive. */
  const labelEvent = (update: LabelUpdate) => {
    for (const listener of labelListeners) listener(update);
  };
  return { service, calls, reprints, cancelled, resumed, labelEvent };
}

const printed = (scan: string): ScanOutcome => ({ kind: 'printed', label: { orderRef: scan, recipient: 'J. Jansen', printerName: 'Bench 3 Zebra', printedAt, scan } });
const duplicate = (scan: string): ScanOutcome => ({
  kind: 'duplicate',
  scan,
  orderRef: scan,
  recipient: 'J. Jansen',
  previous: { printedAt, operator: 'Sam', stationName: 'Bench 3', printerName: 'Bench 3 Zebra' },
});

function setup(service: ScanService) {
  const sounds: SoundKind[] = [];
  let now = 1000;
  const store = createScanStore({ service, playSound: (kind) => sounds.push(kind), now: () => (now += 1) });
  return { store, sounds };
}

describe('the scan screen’s state', () => {
  it('prints a scan, shows it green with its sound, and keeps it among the last labels', async () => {
    const { service, calls } = tableService({ 'ORD-1': printed('ORD-1') });
    const { store, sounds } = setup(service);
    await store.getState().submitScan('  ORD-1\r\n');
    const panel = store.getState().panel;
    expect(panel.state === 'outcome' && panel.outcome.kind).toBe('printed');
    expect(calls).toEqual(['ORD-1']);
    expect(sounds).toEqual(['printed']);
    expect(store.getState().recent.map((label) => label.orderRef)).toEqual(['ORD-1']);
  });

  it('asks which order a scan that fits two meant (amber, two beeps), and prints the chosen one by its order id', async () => {
    const candidate = (orderId: string, recipient: string) => ({ orderId, orderRef: 'REF-7', barcode: null, bundleId: null, recipient, status: 'draft' as const, matchedBy: ['orderRef' as const] });
    const { service, calls } = tableService({
      'REF-7': { kind: 'ambiguous', scan: 'REF-7', candidates: [candidate('ord-a', 'Anna'), candidate('ord-b', 'Bram')], more: 0 },
      'ord-b': printed('ord-b'),
    });
    const { store, sounds } = setup(service);
    await store.getState().submitScan('REF-7');
    const asked = store.getState().panel;
    expect(asked.state === 'outcome' && asked.outcome.kind).toBe('ambiguous');
    expect(sounds).toEqual(['duplicate']);
    // A choice beyond the list does nothing; the second prints as a scan of its order id.
    await store.getState().chooseOrder(2);
    expect(calls).toEqual(['REF-7']);
    await store.getState().chooseOrder(1);
    expect(calls).toEqual(['REF-7', 'ord-b']);
    const panel = store.getState().panel;
    expect(panel.state === 'outcome' && panel.outcome.kind).toBe('printed');
    expect(store.getState().recent.map((label) => label.scan)).toEqual(['ord-b']);
  });

  it('shows an unknown order red with the error sound and does not list it as printed', async () => {
    const { service } = tableService({});
    const { store, sounds } = setup(service);
    await store.getState().submitScan('NOPE-9');
    const panel = store.getState().panel;
    expect(panel.state === 'outcome' && panel.outcome.kind === 'failed' && panel.outcome.error.code).toBe('ORDER_NOT_FOUND');
    expect(sounds).toEqual(['error']);
    expect(store.getState().recent).toEqual([]);
  });

  it('refuses an unusable scan before asking the station', async () => {
    const { service, calls } = tableService({});
    const { store } = setup(service);
    await store.getState().submitScan('ORD\u0007-1');
    const panel = store.getState().panel;
    expect(panel.state === 'outcome' && panel.outcome.kind === 'failed' && panel.outcome.rejection).toBe('control-character');
    expect(calls).toEqual([]);
  });

  it('asks for a reason before reprinting a duplicate, and reprints with it', async () => {
    const { service, reprints } = tableService({ 'ORD-2': duplicate('ORD-2') });
    const { store, sounds } = setup(service);
    await store.getState().submitScan('ORD-2');
    expect(sounds).toEqual(['duplicate']);
    store.getState().confirmReprint();
    expect(store.getState().panel.state).toBe('reason');
    await store.getState().chooseReason('damaged');
    expect(reprints).toEqual([{ scan: 'ORD-2', reason: 'damaged' }]);
    const panel = store.getState().panel;
    expect(panel.state === 'outcome' && panel.outcome.kind).toBe('printed');
  });

  it('asks for a reason before printing an order printed elsewhere, and prints it with that reason', async () => {
    const { service, reprints } = tableService({ 'ORD-6': { kind: 'elsewhere', scan: 'ORD-6', orderRef: 'ORD-6', recipient: 'J. Jansen' } });
    const { store, sounds } = setup(service);
    await store.getState().submitScan('ORD-6');
    expect(sounds).toEqual(['duplicate']);
    expect(reprints).toEqual([]);
    store.getState().confirmReprint();
    expect(store.getState().panel).toMatchObject({ state: 'reason', target: { scan: 'ORD-6', orderRef: 'ORD-6', recipient: 'J. Jansen' } });
    await store.getState().chooseReason('lost');
    expect(reprints).toEqual([{ scan: 'ORD-6', reason: 'lost' }]);
  });

  it('lets a reprint card with a reason confirm a duplicate in one scan, and CANCEL clear it', async () => {
    const { service, reprints } = tableService({ 'ORD-3': duplicate('ORD-3'), 'ORD-4': duplicate('ORD-4') });
    const { store } = setup(service);
    await store.getState().submitScan('ORD-3');
    await store.getState().submitScan('STATION:REPRINT:LOST');
    expect(reprints).toEqual([{ scan: 'ORD-3', reason: 'lost' }]);

    await store.getState().submitScan('ORD-4');
    await store.getState().submitScan('STATION:CANCEL');
    expect(store.getState().panel.state).toBe('idle');
    expect(reprints).toHaveLength(1);
  });

  it('a plain REPRINT card asks for the reason', async () => {
    const { service } = tableService({ 'ORD-5': duplicate('ORD-5') });
    const { store } = setup(service);
    await store.getState().submitScan('ORD-5');
    await store.getState().submitScan('STATION:REPRINT');
    const panel = store.getState().panel;
    expect(panel.state === 'reason' && panel.target.orderRef).toBe('ORD-5');
  });

  it('says a command card had nothing to confirm, and never looks it up as an order', async () => {
    const { service, calls } = tableService({});
    const { store, sounds } = setup(service);
    await store.getState().submitScan('STATION:REPRINT');
    const panel = store.getState().panel;
    expect(panel.state === 'outcome' && panel.outcome.kind).toBe('command-unused');
    expect(calls).toEqual([]);
    expect(sounds).toEqual(['error']);
  });

  it('handles scans in the order they came, one at a time', async () => {
    const { service, calls } = tableService({ A1: printed('A1'), B2: printed('B2'), C3: printed('C3') });
    const { store } = setup(service);
    await Promise.all(['A1', 'B2', 'C3'].map((scan) => store.getState().submitScan(scan)));
    expect(calls).toEqual(['A1', 'B2', 'C3']);
    expect(store.getState().recent.map((label) => label.orderRef)).toEqual(['C3', 'B2', 'A1']);
  });

  it('reprints a recent label by its position after asking the reason', async () => {
    const { service, reprints } = tableService({ A1: printed('A1'), B2: printed('B2') });
    const { store } = setup(service);
    await store.getState().submitScan('A1');
    await store.getState().submitScan('B2');
    store.getState().reprintRecent(1);
    await store.getState().chooseReason('other');
    expect(reprints).toEqual([{ scan: 'A1', reason: 'other' }]);
  });

  it('previews a recent label by its position, only when the journal has it', async () => {
    const withEntry: ScanOutcome = { kind: 'printed', label: { orderRef: 'ORD-7', recipient: 'J. Jansen', printerName: 'Bench 3 Zebra', printedAt, scan: 'ORD-7', entryId: 77 } };
    const { service } = tableService({ 'ORD-7': withEntry, 'ORD-8': printed('ORD-8') });
    const { store } = setup(service);
    await store.getState().submitScan('ORD-7');
    await store.getState().submitScan('ORD-8');
    store.getState().previewRecent(0);
    expect(store.getState().preview).toBeNull();
    store.getState().previewRecent(1);
    expect(store.getState().preview).toEqual({ entryId: 77, orderRef: 'ORD-7' });
    store.getState().closePreview();
    expect(store.getState().preview).toBeNull();
  });

  it('shows a label waiting for the printer, cancels it on the packer’s word, and turns green when the printer has it', async () => {
    const waiting = (scan: string, entryId: number): ScanOutcome => ({
      kind: 'waiting',
      label: { orderRef: scan, recipient: 'J. Jansen', printerName: 'Bench 3 Zebra', printedAt, scan, entryId },
      runId: `run-${entryId}`,
      fault: { code: 'PAPER_OUT', message: 'The printer is out of labels.', action: 'Load a roll, then press Resume.' },
      inPrinter: false,
    });
    const { service, cancelled, resumed, labelEvent } = tableService({ 'ORD-1': waiting('ORD-1', 1), 'ORD-2': waiting('ORD-2', 2) });
    const { store, sounds } = setup(service);

    await store.getState().submitScan('ORD-1');
    expect(store.getState().panel).toMatchObject({ state: 'outcome', outcome: { kind: 'waiting', runId: 'run-1' } });
    expect(sounds).toEqual(['error']);
    expect(store.getState().recent).toEqual([]);
    await store.getState().cancelWaiting();
    expect(cancelled).toEqual(['run-1']);
    expect(store.getState().panel).toEqual({ state: 'idle' });
    labelEvent({ entryId: 1, state: 'failed', reason: 'Cancelled by Sam before it was sent.', printedAt: null });
    expect(store.getState().panel).toEqual({ state: 'idle' });

    await store.getState().submitScan('ORD-2');
    // Resume right on the panel asks the printer of this label's run again.
    await store.getState().resumeWaiting();
    expect(resumed).toEqual(['run-2']);
    // Another label's news does not touch the one on screen.
    labelEvent({ entryId: 1, state: 'printed', reason: null, printedAt });
    expect(store.getState().panel).toMatchObject({ outcome: { kind: 'waiting', runId: 'run-2' } });
    labelEvent({ entryId: 2, state: 'sent', reason: null, printedAt: null });
    expect(store.getState().panel).toMatchObject({ state: 'outcome', outcome: { kind: 'printed', label: { orderRef: 'ORD-2', entryId: 2 } } });
    expect(store.getState().recent.map((label) => label.orderRef)).toEqual(['ORD-2']);
    expect(sounds).toEqual(['error', 'error', 'printed']);
  });

  it('turns a red "not sure it printed" panel green once the printer proves that label printed, and only that label', async () => {
    const uncertain: ScanOutcome = {
      kind: 'failed',
      scan: 'ORD-7',
      error: { code: 'PRINT_UNCERTAIN', message: 'The connection broke while it was sent.', facts: { entryId: 7 } },
    };
    const { service, labelEvent } = tableService({ 'ORD-7': uncertain });
    const { store, sounds } = setup(service);
    await store.getState().submitScan('ORD-7');
    expect(store.getState().panel).toMatchObject({ outcome: { kind: 'failed' } });
    labelEvent({ entryId: 8, state: 'printed', reason: null, printedAt, orderRef: 'ORD-8', recipient: 'A', printerName: 'P' });
    expect(store.getState().panel).toMatchObject({ outcome: { kind: 'failed' } });
    labelEvent({ entryId: 7, state: 'printed', reason: null, printedAt, orderRef: 'NW-7', recipient: 'J. Jansen', printerName: 'Bench 3 Zebra' });
    expect(store.getState().panel).toMatchObject({
      state: 'outcome',
      outcome: { kind: 'printed', label: { orderRef: 'NW-7', recipient: 'J. Jansen', printerName: 'Bench 3 Zebra', printedAt, entryId: 7, scan: 'ORD-7' } },
    });
    expect(sounds).toEqual(['error', 'printed']);
  });
});

describe('a reprint with nobody signed in (issue 15)', () => {
  it('holds the reprint and asks for the name, then reprints once someone signed in', async () => {
    const { service, reprints } = tableService({ 'ORD-2': duplicate('ORD-2') });
    let operator = '';
    const store = createScanStore({ service, playSound: () => undefined, now: () => 1, operator: () => operator });
    await store.getState().submitScan('ORD-2');
    store.getState().confirmReprint();
    await store.getState().chooseReason('lost');
    expect(reprints).toEqual([]);
    expect(store.getState().operatorNeeded).toEqual({ scan: 'ORD-2', reason: 'lost' });

    operator = 'Anna';
    await store.getState().operatorSignedIn();
    expect(reprints).toEqual([{ scan: 'ORD-2', reason: 'lost' }]);
    expect(store.getState().operatorNeeded).toBeNull();
    const panel = store.getState().panel;
    expect(panel.state === 'outcome' && panel.outcome.kind).toBe('printed');
  });

  it('asks as well when the station answers OPERATOR_REQUIRED, instead of showing it red', async () => {
    const { service } = tableService({ 'ORD-2': duplicate('ORD-2') });
    service.reprint = async () => ({ kind: 'failed', scan: 'ORD-2', error: { code: 'OPERATOR_REQUIRED', message: '' } });
    const store = createScanStore({ service, playSound: () => undefined, now: () => 1, operator: () => 'Anna' });
    await store.getState().submitScan('ORD-2');
    store.getState().confirmReprint();
    await store.getState().chooseReason('damaged');
    expect(store.getState().operatorNeeded).toEqual({ scan: 'ORD-2', reason: 'damaged' });
    expect(store.getState().panel.state).toBe('reason');
  });

  it('drops the held reprint when nobody signs in', async () => {
    const { service, reprints } = tableService({ 'ORD-2': duplicate('ORD-2') });
    const store = createScanStore({ service, playSound: () => undefined, now: () => 1, operator: () => '' });
    await store.getState().submitScan('ORD-2');
    store.getState().confirmReprint();
    await store.getState().chooseReason('damaged');
    store.getState().dropHeldReprint();
    await store.getState().operatorSignedIn();
    expect(reprints).toEqual([]);
  });
});
