import { describe, expect, it } from 'vitest';
import { commandBarcodes, isCommandText, parseScanCommand, reprintReasons } from '../../../src/renderer/src/scan/commands';

describe('command barcodes', () => {
  it('reads REPRINT with and without a reason, and CANCEL', () => {
    expect(parseScanCommand('STATION:REPRINT')).toEqual({ command: 'reprint', reason: null });
    expect(parseScanCommand('station:reprint:damaged')).toEqual({ command: 'reprint', reason: 'damaged' });
    expect(parseScanCommand(' STATION:REPRINT:WRONG-PRINTER ')).toEqual({ command: 'reprint', reason: 'wrong-printer' });
    expect(parseScanCommand('STATION:CANCEL')).toEqual({ command: 'cancel' });
  });

  it('round-trips every printed card', () => {
    for (const reason of reprintReasons) expect(parseScanCommand(commandBarcodes.reprintWithReason(reason))).toEqual({ command: 'reprint', reason });
    expect(parseScanCommand(commandBarcodes.reprint)).toEqual({ command: 'reprint', reason: null });
    expect(parseScanCommand(commandBarcodes.cancel)).toEqual({ command: 'cancel' });
  });

  it('is not an order scan, and an unknown command is recognised as a command that means nothing', () => {
    expect(parseScanCommand('ORD-1001')).toBeNull();
    expect(isCommandText('ORD-1001')).toBe(false);
    expect(parseScanCommand('STATION:REPRINT:TIRED')).toBeNull();
    expect(parseScanCommand('STATION:CANCEL:NOW')).toBeNull();
    expect(isCommandText('STATION:REPRINT:TIRED')).toBe(true);
  });
});
