import { describe, expect, it } from 'vitest';
import { PrinterTransportError } from '../../../src/main/printing/transports/transport';
import { faultOfFailure, stateName } from '../../../src/main/printing/queue/printer-queue';
import { classifyFetchFailure, rasterGeometry } from '../../../src/main/printing/runs/label-documents';
import { defaultPrinterOptions } from '../../../src/main/printing/printers';
import { StationError } from '../../../src/shared/errors';
import { printerFault } from '../../../src/shared/zebra/faults';

describe('printing rules', () => {
  it('waits out a Delivery API outage but fails a label the service refuses', () => {
    for (const code of ['NETWORK', 'TIMEOUT', 'SERVER_ERROR', 'RATE_LIMITED', 'KEY_REJECTED'] as const) {
      expect(classifyFetchFailure(new StationError(code, 'x'))).toBe('service');
    }
    for (const code of ['ORDER_NOT_FOUND', 'VALIDATION', 'LABEL_NOT_READY', 'MALFORMED_RESPONSE', 'FORBIDDEN'] as const) {
      expect(classifyFetchFailure(new StationError(code, 'x'))).toBe('label');
    }
    expect(classifyFetchFailure(new Error('boom'))).toBe('label');
  });

  it('fits rasterised pages to A6 at the printer’s resolution, no wider than it prints', () => {
    expect(rasterGeometry({ options: defaultPrinterOptions })).toEqual({ widthDots: 832, lengthDots: 1184, dpi: 203 });
    expect(rasterGeometry({ options: { ...defaultPrinterOptions, dpi: 300, printWidthDots: 1200 } })).toEqual({ widthDots: 1200, lengthDots: 1748, dpi: 300 });
    expect(rasterGeometry({ options: { ...defaultPrinterOptions, dpi: 300, printWidthDots: 1248 } })).toEqual({ widthDots: 1240, lengthDots: 1748, dpi: 300 });
  });

  it('words a failed connection as the offline fault with the transport’s own sentence', () => {
    const refused = new PrinterTransportError('PRINTER_OFFLINE', 'The printer at 10.0.0.5:9100 refused the connection.', { failure: 'refused' });
    expect(faultOfFailure(refused)).toMatchObject({ kind: 'offline', code: 'PRINTER_OFFLINE', message: 'The printer at 10.0.0.5:9100 refused the connection.' });
    const bad = new PrinterTransportError('PRINTER_ERROR', 'Unreadable answer.', { failure: 'bad-answer' });
    expect(faultOfFailure(bad)).toMatchObject({ kind: 'printer-error', message: 'Unreadable answer.' });
  });

  it('names the printer state the status area shows', () => {
    expect(stateName(null, false)).toBe('ready');
    expect(stateName(null, true)).toBe('printing');
    expect(stateName(printerFault('paper-out'), true)).toBe('paperOut');
    expect(stateName(printerFault('head-open'), false)).toBe('headOpen');
    expect(stateName(printerFault('ribbon-out'), false)).toBe('error');
    expect(stateName(printerFault('offline'), false)).toBe('offline');
  });
});
