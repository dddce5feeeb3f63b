import { describe, expect, it } from 'vitest';
import { StationError } from '../../../src/shared/errors';
import { errorWords } from '../../../src/renderer/src/supervision/error-words';
import { commandBarcodes, parseScanCommand } from '../../../src/renderer/src/scan/commands';
import { runCsv } from '../../../src/renderer/src/journal/journal-csv';
import { reasonWords } from '../../../src/renderer/src/journal/reason-words';
import { createI18n } from './all-languages';

describe('supervision words and commands on the screen', () => {
  it('gives the screen the clock time and the lead for its own words', () => {
    const error = new StationError('ORDER_VOIDED', 'x', ['voided_at: 2026-03-01T09:42:00.000Z', 'voided_by: Anna', 'reason: customer called']).toData();
    const words = errorWords(error, 'en');
    expect(words.by).toBe('Anna');
    expect(words.reason).toBe('customer called');
    // The time in the station's own zone, as the packer's clock shows it.
    const local = new Date('2026-03-01T09:42:00.000Z');
    expect(words.time).toBe(`${String(local.getHours()).padStart(2, '0')}:${String(local.getMinutes()).padStart(2, '0')}`);
    expect(errorWords(new StationError('CANCEL_REFUSED', 'y', ['status: out_for_delivery']).toData(), 'en').status).toBe('out_for_delivery');
  });

  it('reads the STATION:VOID command card', () => {
    expect(commandBarcodes.void).toBe('STATION:VOID');
    expect(parseScanCommand('station:void')).toEqual({ command: 'void' });
    expect(parseScanCommand('STATION:VOID:NOW')).toBeNull();
  });
});

describe('a run export', () => {
  it('lists the parcels the run left out after its labels, with the reason’s code and words', () => {
    const csv = runCsv([], [{ orderId: 'ORD-9', bundleId: 'BUN-2', code: 'ORDER_TERMINAL', message: 'REF-9 is cancelled' }], 'sandbox');
    const [header, row, ...rest] = csv.trim().split('\r\n');
    expect(rest).toEqual([]);
    const cells = Object.fromEntries((header ?? '').split(',').map((name, index) => [name, (row ?? '').split(',')[index]]));
    expect(cells).toMatchObject({ state: 'left-out', orderId: 'ORD-9', bundleId: 'BUN-2', reason: 'ORDER_TERMINAL: REF-9 is cancelled', environment: 'sandbox' });
  });
});

describe('reprint reasons', () => {
  it('are kept as codes and shown in the screen’s language; other reasons stay as main wrote them', () => {
    expect(reasonWords('Reprint by Sam: damaged', createI18n('en').t)).toBe('Reprint by Sam: Label damaged');
    expect(reasonWords('Reprint by Sam: damaged', createI18n('nl').t)).toBe('Herdruk door Sam: Etiket beschadigd');
    expect(reasonWords('Reprint by Sam: spilled coffee', createI18n('en').t)).toBe('Reprint by Sam: spilled coffee');
    expect(reasonWords('printer out of paper', createI18n('nl').t)).toBe('printer out of paper');
  });
});
