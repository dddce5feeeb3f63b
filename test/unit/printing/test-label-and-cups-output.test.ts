import { describe, expect, it } from 'vitest';
import { buildTestLabel, escapeField } from '../../../src/main/printing/test-label';
import { parseLpJobId, parseLpstatQueues } from '../../../src/main/printing/transports/cups';
import { deliveryOf, PrinterTransportError } from '../../../src/main/printing/transports/transport';

describe('test label', () => {
  const label = buildTestLabel({ printerName: 'Bench 3', stationName: 'Packing 3', printedAt: new Date(2026, 10, 21, 9, 5, 7) });

  it('is one ZPL format with the printer, the station, the time and a Code 128 barcode', () => {
    expect(label.zpl.startsWith('^XA')).toBe(true);
    expect(label.zpl.trim().endsWith('^XZ')).toBe(true);
    expect(label.zpl.match(/\^XA/g)).toHaveLength(1);
    expect(label.zpl).toContain('^FDPrinter: Bench 3^FS');
    expect(label.zpl).toContain('^FDStation: Packing 3^FS');
    expect(label.zpl).toContain('^FDTime: 2026-11-21 09:05:07^FS');
    expect(label.barcode).toBe('TEST20261121090507');
    expect(label.zpl).toContain(`^BCN,120,Y,N,N^FD${label.barcode}^FS`);
  });

  it('is drawn at the printer’s own resolution, so a 300 dpi printer prints it at full size', () => {
    const at300 = buildTestLabel({ printerName: 'Bench 3', printedAt: new Date(2026, 10, 21, 9, 5, 7), dpi: 300 });
    // 104 mm (a 4-inch head) is 832 dots at 203 dpi and 1,230 at 300 dpi; the barcode's bars widen with it.
    expect(at300.zpl).toContain('^PW1230');
    expect(at300.zpl).toContain('^LL887');
    expect(at300.zpl).toContain(`^BY3^BCN,177,Y,N,N^FD${at300.barcode}^FS`);
    expect(label.zpl).toContain('^PW832');
    expect(label.zpl).toContain('^BY2^BCN,120');
  });

  it('cannot be broken by a printer name with ZPL characters in it', () => {
    const hostile = buildTestLabel({ printerName: 'Zebra ^XZ~JA_1 é', printedAt: new Date(2026, 0, 1) });
    expect(hostile.zpl).toContain('^FDPrinter: Zebra _5EXZ_7EJA_5F1 _C3_A9^FS');
    expect(hostile.zpl.match(/\^XZ/g)).toHaveLength(1);
    expect(hostile.zpl).not.toContain('~JA');
    expect(hostile.zpl).not.toContain('Station:');
  });

  it('escapes only what ^FH needs escaped', () => {
    expect(escapeField('A-z 0_9^~')).toBe('A-z 0_5F9_5E_7E');
    expect(escapeField('€')).toBe('_E2_82_AC');
  });
});

describe('lp and lpstat output', () => {
  it('reads the job id lp prints', () => {
    expect(parseLpJobId('request id is Zebra_ZD421-12 (0 file(s))\n')).toBe('Zebra_ZD421-12');
    expect(parseLpJobId('')).toBeNull();
  });

  it('merges lpstat -e names with lpstat -p -a -d states', () => {
    const names = 'bench_zebra\nbench_pdf\nOffice_Laser\n';
    const details = [
      'printer bench_pdf is idle.  enabled since Sat Nov 21 18:52:59 2026',
      'printer bench_zebra now printing bench_zebra-4.  enabled since Sat Nov 21 18:52:55 2026',
      'printer old_queue disabled since Sat Nov 21 18:50:00 2026 -',
      '\treason unknown',
      'bench_pdf accepting requests since Sat Nov 21 18:52:59 2026',
      'bench_zebra accepting requests since Sat Nov 21 18:52:55 2026',
      'old_queue not accepting requests since Sat Nov 21 18:50:00 2026 -',
      '\tRejecting Jobs',
      'system default destination: bench_pdf',
    ].join('\n');
    expect(parseLpstatQueues(names, details)).toEqual([
      { name: 'bench_zebra', system: 'cups', state: 'printing', accepting: true, isDefault: false },
      { name: 'bench_pdf', system: 'cups', state: 'idle', accepting: true, isDefault: true },
      { name: 'Office_Laser', system: 'cups', state: 'unknown', accepting: null, isDefault: false },
      { name: 'old_queue', system: 'cups', state: 'disabled', accepting: false, isDefault: false },
    ]);
  });

  it('has no queues when CUPS has none', () => {
    expect(parseLpstatQueues('', 'no system default destination\n')).toEqual([]);
  });
});

describe('delivery after a failed send', () => {
  it('is none, partial or unconfirmed by how many bytes went out', () => {
    expect(deliveryOf(0, 100)).toBe('none');
    expect(deliveryOf(40, 100)).toBe('partial');
    expect(deliveryOf(100, 100)).toBe('unconfirmed');
    const error = new PrinterTransportError('PRINTER_OFFLINE', 'x', { failure: 'reset', bytesWritten: 40, totalBytes: 100 });
    expect(error.uncertain).toBe(true);
    expect(error.toData()).toEqual({ code: 'PRINTER_OFFLINE', message: 'x' });
  });
});
