import { describe, expect, it } from 'vitest';
import { checkPrinter, evaluatePrinterIdentity } from '../../../src/main/printing/check';
import { faultError } from '../../../src/main/printing/status/printer-status';
import type { PrinterTransport } from '../../../src/main/printing/transports/transport';
import { faultsFromStatus, parseExtendedStatus, parseHostStatus, printerAddressKey, PrinterAddressSchema } from '../../../src/shared/zebra';

const hs = (one: string, two: string): string => `\x02${one}\x03\r\n\x02${two}\x03\r\n\x021234,0\x03\r\n`;
const READY_1 = '030,0,0,1184,000,0,0,0,000,0,0,0';
const READY_2 = '001,0,0,0,1,2,6,0,00000000,1,000';
const hqes = (group1: string): string => `\x02\r\n  PRINTER STATUS\r\n   ERRORS:         1 00000000 ${group1}\r\n   WARNINGS:       0 00000000 00000000\r\n\x03`;

describe('faults from status', () => {
  it('has no fault for a ready printer', () => {
    expect(faultsFromStatus(parseHostStatus(hs(READY_1, READY_2)))).toEqual([]);
  });

  it('lists each fault once, most urgent first, with code, message and what to do', () => {
    const host = parseHostStatus(hs('030,1,1,1184,000,0,0,0,000,0,0,0', '001,0,1,1,1,2,6,0,00000000,1,000'));
    const extended = parseExtendedStatus(hqes('00000007'));
    const faults = faultsFromStatus(host, extended);
    expect(faults.map((fault) => fault.code)).toEqual(['HEAD_OPEN', 'PAPER_OUT', 'RIBBON_OUT', 'PRINTER_PAUSED']);
    expect(faults[1]).toEqual({
      kind: 'paper-out',
      code: 'PAPER_OUT',
      message: 'The printer is out of labels.',
      action: 'Load a roll, then press Resume.',
    });
    expect(faultError(faults[1]!).message).toBe('The printer is out of labels. Load a roll, then press Resume.');
  });

  it('turns ~HQES errors that ~HS cannot show into PRINTER_ERROR with the printer’s reason', () => {
    const faults = faultsFromStatus(parseHostStatus(hs(READY_1, READY_2)), parseExtendedStatus(hqes('00000018')));
    expect(faults.map((fault) => [fault.code, fault.message])).toEqual([
      ['PRINTER_ERROR', 'The printer reports a cutter fault.'],
      ['PRINTER_ERROR', 'The printhead is too hot.'],
    ]);
  });

  it('still says something for an error bit nobody named', () => {
    const faults = faultsFromStatus(parseHostStatus(hs(READY_1, READY_2)), parseExtendedStatus(hqes('40000000')));
    expect(faults).toHaveLength(1);
    expect(faults[0]).toMatchObject({ code: 'PRINTER_ERROR', message: 'The printer reports an error.' });
  });

  it('reports a fault ~HQES shows even when ~HS does not', () => {
    const faults = faultsFromStatus(parseHostStatus(hs(READY_1, READY_2)), parseExtendedStatus(hqes('00000001')));
    expect(faults.map((fault) => fault.code)).toEqual(['PAPER_OUT']);
  });
});

describe('printer check rules', () => {
  const zebra = { dpi: 203, printWidthDots: 832, languages: ['zpl'], languagesSetting: 'zpl' };

  it('passes a 203 dpi printer 832 dots wide (a 4-inch head): A6 fits', () => {
    expect(evaluatePrinterIdentity(zebra)).toEqual([]);
    expect(evaluatePrinterIdentity({ ...zebra, printWidthDots: 839 })).toEqual([]);
    expect(evaluatePrinterIdentity({ ...zebra, printWidthDots: 1344 })).toEqual([]);
    expect(evaluatePrinterIdentity({ ...zebra, languages: ['hybrid', 'xml', 'zpl'], languagesSetting: 'hybrid_xml_zpl' })).toEqual([]);
  });

  it('warns when the width is below 832 dots', () => {
    const [warning] = evaluatePrinterIdentity({ ...zebra, printWidthDots: 831 });
    expect(warning?.issue).toBe('print-width');
    expect(warning?.message).toContain('about 1 mm at the right edge would be cut off');
  });

  it('warns about a printer that is not set to ZPL', () => {
    const warnings = evaluatePrinterIdentity({ ...zebra, languages: ['epl'], languagesSetting: 'epl' });
    expect(warnings.map((warning) => warning.message)).toEqual([
      'The printer is set to the "epl" printer language, not ZPL. Switch it to ZPL (or choose another printer): it would not print the labels.',
    ]);
  });

  it('does not warn about another resolution (labels are rasterised at it), only about a head too narrow at that resolution', () => {
    expect(evaluatePrinterIdentity({ ...zebra, dpi: 600, printWidthDots: 2496 })).toEqual([]);
    expect(evaluatePrinterIdentity({ ...zebra, dpi: 300, printWidthDots: 832 }).map((warning) => warning.issue)).toEqual(['print-width']);
  });

  it('warns when the width is unknown', () => {
    expect(evaluatePrinterIdentity({ ...zebra, printWidthDots: null }).map((warning) => warning.issue)).toEqual(['print-width-unknown']);
  });

  it('says what it cannot check behind an OS queue or on a PDF printer', async () => {
    const queue: PrinterTransport = {
      kind: 'os-queue-raw',
      format: 'zpl',
      description: 'CUPS queue "zebra"',
      send: () => Promise.reject(new Error('not used')),
      close: () => Promise.resolve(),
    };
    const raw = await checkPrinter(queue);
    expect(raw).toMatchObject({ checked: false, passed: false, identity: null });
    expect(raw.warnings[0]?.message).toContain('203 dpi ZPL printer');
    const pdf = await checkPrinter({ ...queue, kind: 'os-queue-pdf', format: 'pdf' });
    expect(pdf.warnings[0]?.message).toContain('paper size to A6');
  });
});

describe('printer addresses', () => {
  it('validates what the user types and defaults the port to 9100', () => {
    expect(PrinterAddressSchema.parse({ kind: 'network-zebra', host: ' 10.0.0.5 ' })).toEqual({ kind: 'network-zebra', host: '10.0.0.5', port: 9100 });
    expect(PrinterAddressSchema.safeParse({ kind: 'network-zebra', host: 'zebra-3.bench.local', port: 6101 }).success).toBe(true);
    expect(PrinterAddressSchema.safeParse({ kind: 'network-zebra', host: 'not a host' }).success).toBe(false);
    expect(PrinterAddressSchema.safeParse({ kind: 'network-zebra', host: '10.0.0.5', port: 70000 }).success).toBe(false);
    expect(PrinterAddressSchema.safeParse({ kind: 'os-queue-raw', queue: '-o raw' }).success).toBe(false);
    expect(PrinterAddressSchema.safeParse({ kind: 'os-queue-raw', queue: 'Zebra\nZD421' }).success).toBe(false);
    expect(PrinterAddressSchema.safeParse({ kind: 'os-queue-raw', queue: 'ZDesigner ZD421-203dpi ZPL' }).success).toBe(true);
  });

  it('gives one key per route', () => {
    const key = (input: unknown) => printerAddressKey(PrinterAddressSchema.parse(input));
    expect(key({ kind: 'network-zebra', host: 'Zebra-1' })).toBe(key({ kind: 'network-zebra', host: 'zebra-1', port: 9100 }));
    expect(key({ kind: 'os-queue-raw', queue: 'z' })).not.toBe(key({ kind: 'os-queue-pdf', queue: 'z' }));
  });
});
