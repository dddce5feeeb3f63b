import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCommandRunner } from '../../../src/main/printing/transports/command-runner';
import { CupsQueueTransport } from '../../../src/main/printing/transports/cups';
import { NetworkZebraTransport } from '../../../src/main/printing/transports/network-zebra';
import { createPrinterTransports } from '../../../src/main/printing/transports/printer-transports';
import { UsbZebraTransport } from '../../../src/main/printing/transports/usb-zebra';
import { SumatraPdfTransport } from '../../../src/main/printing/transports/windows-pdf';
import { WindowsRawTransport } from '../../../src/main/printing/transports/windows-spooler';
import { StationError } from '../../../src/shared/errors';

const runner = createCommandRunner();

describe('the station’s printer transports', () => {
  it('picks CUPS on Linux and macOS, the spooler and SumatraPDF on Windows', () => {
    const linux = createPrinterTransports({ platform: 'linux', runner });
    expect(linux.forPrinter({ kind: 'os-queue-raw', queue: 'zebra' })).toBeInstanceOf(CupsQueueTransport);
    expect(linux.forPrinter({ kind: 'os-queue-pdf', queue: 'laser' })).toBeInstanceOf(CupsQueueTransport);
    expect(linux.forPrinter({ kind: 'network-zebra', host: '10.0.0.5', port: 9100 })).toBeInstanceOf(NetworkZebraTransport);

    const windows = createPrinterTransports({ platform: 'win32', runner, sumatraPath: 'C:\\Station\\SumatraPDF.exe' });
    expect(windows.forPrinter({ kind: 'os-queue-raw', queue: 'ZDesigner ZD421' })).toBeInstanceOf(WindowsRawTransport);
    expect(windows.forPrinter({ kind: 'os-queue-pdf', queue: 'ZDesigner ZD421' })).toBeInstanceOf(SumatraPdfTransport);
  });

  it('says what is missing for PDF printing on Windows without SumatraPDF', () => {
    const windows = createPrinterTransports({ platform: 'win32', runner, sumatraPath: null });
    expect(() => windows.forPrinter({ kind: 'os-queue-pdf', queue: 'Laser' })).toThrow(StationError);
    expect(() => windows.forPrinter({ kind: 'os-queue-pdf', queue: 'Laser' })).toThrow('need SumatraPDF');
  });

  it('finds SumatraPDF where it is installed on Windows, when no path is given', () => {
    const localAppData = mkdtempSync(join(tmpdir(), 'station-localappdata-'));
    try {
      const search = { env: { LOCALAPPDATA: localAppData }, resourcesPath: undefined };
      const before = createPrinterTransports({ platform: 'win32', runner, sumatraSearch: search });
      expect(() => before.forPrinter({ kind: 'os-queue-pdf', queue: 'Laser' })).toThrow('need SumatraPDF');
      // Installed per user (SumatraPDF's own installer puts it in %LOCALAPPDATA%\SumatraPDF).
      mkdirSync(join(localAppData, 'SumatraPDF'));
      writeFileSync(join(localAppData, 'SumatraPDF', 'SumatraPDF.exe'), '');
      const after = createPrinterTransports({ platform: 'win32', runner, sumatraSearch: search });
      expect(after.forPrinter({ kind: 'os-queue-pdf', queue: 'Laser' })).toBeInstanceOf(SumatraPdfTransport);
    } finally {
      rmSync(localAppData, { recursive: true, force: true });
    }
  });

  it('sends for a USB printer it cannot open through the printer’s OS queue', async () => {
    const transports = createPrinterTransports({
      platform: 'linux',
      runner,
      // No lp on the PATH: the fallback's own error shows that the send went to the CUPS queue.
      cupsEnv: { PATH: '/nonexistent' },
      usb: async () => ({
        getDevices: async () => {
          throw new Error('LIBUSB_ERROR_ACCESS');
        },
      }),
    });
    const usb = transports.forPrinter({ kind: 'usb-zebra', serialNumber: 'D4J123', fallbackQueue: 'zebra_usb' });
    expect(usb).toBeInstanceOf(UsbZebraTransport);
    expect(transports.forPrinter({ kind: 'usb-zebra', serialNumber: 'D4J123', fallbackQueue: 'zebra_usb' })).toBe(usb);
    await expect(usb.send(new TextEncoder().encode('^XA^XZ'))).rejects.toThrow('The CUPS command "lp" is not installed');
  });

  it('hands out fresh transports after closeAll', async () => {
    const transports = createPrinterTransports({ platform: 'linux', runner });
    const before = transports.forPrinter({ kind: 'network-zebra', host: '10.0.0.5', port: 9100 });
    await transports.closeAll();
    expect(transports.forPrinter({ kind: 'network-zebra', host: '10.0.0.5', port: 9100 })).not.toBe(before);
  });
});
