import { describe, expect, it } from 'vitest';
import type { PrintOutcomeData } from '../../../src/shared/contract/printing';
import { outcomeFromPrint } from '../../../src/renderer/src/scan/contract-scan-service';
import { soundOf, toneOf } from '../../../src/renderer/src/scan/scan-outcome';
import { journalEntry } from './journal-entry';

const entry = journalEntry(41, {
  runId: 'run-1',
  position: 0,
  orderId: 'SBX-1',
  orderRef: 'ORD-1001',
  barcode: '3SABC1',
  recipient: 'J. Jansen',
  queuedAt: '2025-11-21T10:30:58.000Z',
  fetchedAt: '2025-11-21T10:30:59.000Z',
  sentAt: '2025-11-21T10:30:59.500Z',
  printedAt: '2025-11-21T10:31:00.000Z',
});

const order = { orderId: 'SBX-1', orderRef: 'ORD-1001', barcode: '3SABC1', recipient: 'J. Jansen', bundleId: null };

describe('what printing.print means for the scan screen', () => {
  it('a printed label: order ref, recipient, printer, and when', () => {
    const data: PrintOutcomeData = { outcome: 'printed', scan: '3SABC1', order, entry, printer: { id: 'bench-3', name: 'Bench 3 Zebra' }, reprint: false, proofFollows: true, elapsedMs: 420 };
    expect(outcomeFromPrint(data)).toEqual({
      kind: 'printed',
      label: { orderRef: 'ORD-1001', recipient: 'J. Jansen', printerName: 'Bench 3 Zebra', printedAt: '2025-11-21T10:31:00.000Z', scan: '3SABC1', entryId: 41, reprint: false },
    });
  });

  it('a label handed to an OS queue says the printer cannot report whether it came out', () => {
    const data: PrintOutcomeData = { outcome: 'printed', scan: '3SABC1', order, entry: { ...entry, state: 'sent', printedAt: null }, printer: { id: 'office', name: 'Office PDF' }, reprint: false, proofFollows: false, elapsedMs: 80 };
    expect(outcomeFromPrint(data)).toMatchObject({ kind: 'printed', label: { printerName: 'Office PDF', unconfirmed: true } });
  });

  it('a label waiting for the printer keeps its run, the fault and what to do', () => {
    const data: PrintOutcomeData = {
      outcome: 'waiting',
      scan: 'ORD-1001',
      order,
      runId: 'run-7',
      entry: { ...entry, state: 'fetched', sentAt: null, printedAt: null },
      printer: { id: 'bench-3', name: 'Bench 3 Zebra' },
      reprint: false,
      fault: { kind: 'paper-out', code: 'PAPER_OUT', message: 'Out of labels', action: 'Load a roll' },
      sentence: 'Out of labels Load a roll',
      inPrinter: false,
      elapsedMs: 300,
    };
    const outcome = outcomeFromPrint(data);
    expect(outcome).toMatchObject({ kind: 'waiting', runId: 'run-7', inPrinter: false, fault: { code: 'PAPER_OUT', message: 'Out of labels', action: 'Load a roll' }, label: { entryId: 41 } });
    // Nothing came out yet and the packer must load a roll: red, with the error sound.
    expect(toneOf(outcome)).toBe('danger');
    expect(soundOf(outcome)).toBe('error');
  });

  it('a duplicate: who printed it, when, where', () => {
    const data: PrintOutcomeData = {
      outcome: 'duplicate',
      scan: 'ORD-1001',
      order: { ...order, orderRef: null, recipient: null },
      previous: { entryId: 41, state: 'printed', printedAt: '2025-11-21T10:31:00.000Z', operator: 'Sam', stationName: 'Bench 3', printerName: 'Bench 3 Zebra' },
    };
    expect(outcomeFromPrint(data)).toEqual({
      kind: 'duplicate',
      scan: 'ORD-1001',
      orderRef: '3SABC1',
      recipient: '',
      previous: { printedAt: '2025-11-21T10:31:00.000Z', operator: 'Sam', stationName: 'Bench 3', printerName: 'Bench 3 Zebra' },
    });
  });
});
