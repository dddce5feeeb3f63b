// One transport per printer route for the whole station: the print queue, the settings screen's
// "test" button and the status poller all get the same object for the same printer, so they share
// its connection and its lock (one connection at a time per printer). The composition root creates
// one of these and closes it on shutdown.
import { StationError } from '../../../shared/errors';
import { printerAddressKey, type PrinterAddress } from '../../../shared/zebra/printer-address';
import type { CommandRunner } from './command-runner';
import { createCupsQueueTransport, listCupsQueues } from './cups';
import { createNetworkZebraTransport, type NetworkZebraOptions } from './network-zebra';
import type { OsQueue } from './os-queue';
import type { PrinterTransport } from './transport';
import { findZebraUsbDevices, createUsbZebraTransport, type UsbZebraInfo, type UsbZebraOptions } from './usb-zebra';
import { loadUsbBackend, type UsbBackend } from './usb-device';
import { createSumatraPdfTransport, findSumatraPdf, type SumatraScale } from './windows-pdf';
import { createWindowsRawTransport, listWindowsPrinters } from './windows-spooler';
import { loadWinspool, type Winspool } from './winspool-binding';

export interface PrinterTransportsOptions {
  platform: NodeJS.Platform;
  runner: CommandRunner;
  /** Environment for lp and lpstat (CUPS_SERVER to reach another scheduler). */
  cupsEnv?: Record<string, string | undefined>;
  /** CUPS PDF queues: `-o media=…` and `-o fit-to-page`. */
  cupsPdf?: { media?: string; fitToPage?: boolean };
  /** Windows spooler functions; the real winspool.drv by default. */
  winspool?: () => Promise<Winspool>;
  /** USB devices; the `usb` package by default. */
  usb?: () => Promise<UsbBackend>;
  /**
   * Windows PDF printing: SumatraPDF.exe's path, or null when it is not available. By default it is
   * looked for (`findSumatraPdf`) when a PDF printer's transport is first built, so one installed
   * while the station runs is found by the next printer that needs it.
   */
  sumatraPath?: string | null;
  /** Where SumatraPDF is looked for: the environment (%LOCALAPPDATA%, %ProgramFiles% …) and Electron's resources folder. */
  sumatraSearch?: { env: Record<string, string | undefined>; resourcesPath: string | undefined };
  sumatraScale?: SumatraScale;
  /** Timeouts and sizes for network Zebras (host and port come from the address). */
  network?: Omit<NetworkZebraOptions, 'host' | 'port'>;
  usbTimeouts?: Pick<UsbZebraOptions, 'writeTimeoutMs' | 'queryTimeoutMs' | 'chunkBytes'>;
}

export interface PrinterTransports {
  /** The transport for a printer's address; the same object every time for the same route. */
  forPrinter(address: PrinterAddress): PrinterTransport;
  /** The print queues the OS has (CUPS or the Windows spooler). */
  listOsQueues(): Promise<OsQueue[]>;
  /** The Zebras plugged in by USB. */
  listUsbZebras(): Promise<UsbZebraInfo[]>;
  /** Closes every open connection and device. */
  closeAll(): Promise<void>;
}

export function createPrinterTransports(options: PrinterTransportsOptions): PrinterTransports {
  const transports = new Map<string, PrinterTransport>();
  let winspool: Promise<Winspool> | null = null;
  let usb: Promise<UsbBackend> | null = null;
  const windows = options.platform === 'win32';

  // Loaded once and shared; a failed load is forgotten so the next use tries again.
  const loadWinspoolOnce = (): Promise<Winspool> => {
    winspool ??= (options.winspool ?? loadWinspool)().catch((error: unknown) => {
      winspool = null;
      throw error;
    });
    return winspool;
  };
  const loadUsbOnce = (): Promise<UsbBackend> => {
    usb ??= (options.usb ?? loadUsbBackend)().catch((error: unknown) => {
      usb = null;
      throw error;
    });
    return usb;
  };

  const build = (address: PrinterAddress): PrinterTransport => {
    switch (address.kind) {
      case 'network-zebra':
        return createNetworkZebraTransport({ ...options.network, host: address.host, port: address.port });
      case 'os-queue-raw':
        return windows
          ? createWindowsRawTransport({ printerName: address.queue, winspool: loadWinspoolOnce })
          : createCupsQueueTransport({
              queue: address.queue,
              format: 'zpl',
              runner: options.runner,
              ...(options.cupsEnv ? { env: options.cupsEnv } : {}),
            });
      case 'os-queue-pdf': {
        if (!windows) {
          return createCupsQueueTransport({
            queue: address.queue,
            format: 'pdf',
            runner: options.runner,
            ...(options.cupsEnv ? { env: options.cupsEnv } : {}),
            ...(options.cupsPdf ? { pdf: options.cupsPdf } : {}),
          });
        }
        const sumatraPath = options.sumatraPath !== undefined ? options.sumatraPath : lookForSumatra(options.sumatraSearch);
        if (!sumatraPath) {
          throw new StationError(
            'NOT_CONFIGURED',
            'PDF printers on Windows need SumatraPDF, and it was not found. Install it or place SumatraPDF.exe next to the station (see docs/printing.md).',
          );
        }
        return createSumatraPdfTransport({
          printerName: address.queue,
          sumatraPath,
          runner: options.runner,
          ...(options.sumatraScale ? { scale: options.sumatraScale } : {}),
        });
      }
      case 'usb-zebra':
        return createUsbZebraTransport({
          ...options.usbTimeouts,
          backend: loadUsbOnce,
          platform: options.platform,
          ...(address.serialNumber !== undefined ? { serialNumber: address.serialNumber } : {}),
          ...(address.productId !== undefined ? { productId: address.productId } : {}),
          ...(address.fallbackQueue ? { fallback: forPrinter({ kind: 'os-queue-raw', queue: address.fallbackQueue }) } : {}),
        });
    }
  };

  const forPrinter = (address: PrinterAddress): PrinterTransport => {
    const key = printerAddressKey(address);
    let transport = transports.get(key);
    if (!transport) {
      transport = build(address);
      transports.set(key, transport);
    }
    return transport;
  };

  return {
    forPrinter,
    async listOsQueues() {
      if (windows) return listWindowsPrinters(await loadWinspoolOnce());
      return listCupsQueues({ runner: options.runner, ...(options.cupsEnv ? { env: options.cupsEnv } : {}) });
    },
    async listUsbZebras() {
      return findZebraUsbDevices(await loadUsbOnce());
    },
    async closeAll() {
      const open = [...transports.values()];
      transports.clear();
      await Promise.allSettled(open.map((transport) => transport.close()));
    },
  };
}

/** Electron's resources folder (next to the app, where the installer may place SumatraPDF); absent in plain Node. */
const electronResourcesPath = (): string | undefined => (process as { resourcesPath?: string }).resourcesPath;

function lookForSumatra(search: PrinterTransportsOptions['sumatraSearch']): string | null {
  return findSumatraPdf(search?.env ?? process.env, search ? search.resourcesPath : electronResourcesPath());
}
