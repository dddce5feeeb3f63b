// Direct USB to a Zebra (vendor 0x0A5F): claim the printer-class interface, ZPL out on the bulk OUT
// endpoint, status answers in on the bulk IN endpoint. When the OS will not let the station claim
// the device (no udev rule, no WinUSB driver, a driver holding it), the error says what the OS
// needs and, if the printer has an OS queue configured as its fallback, the label goes there.
import { parseHostStatus } from '../../../shared/zebra/host-status';
import { ZEBRA_USB_VENDOR_ID } from '../../../shared/zebra/printer-address';
import { describeQuery, hostStatusQuery, isQueryAnswered, queryCommand, type ZebraQuery } from '../../../shared/zebra/queries';
import { ZebraReplyError } from '../../../shared/zebra/reply-error';
import { createSemaphore } from '../../api/semaphore';
import {
  PrinterTransportError,
  deliveryOf,
  type Delivery,
  type PrinterTransport,
  type QueryOptions,
  type SendOptions,
  type SendResult,
  type StatusTransport,
  type TransportFailure,
} from './transport';
import type { UsbBackend, UsbConfigurationInfo, UsbPrinterDevice } from './usb-device';

export interface UsbZebraOptions {
  backend: () => Promise<UsbBackend>;
  /** Which Zebra, when several are plugged in; without it the first one found. */
  serialNumber?: string;
  productId?: number;
  platform: NodeJS.Platform;
  /** Longest time one bulk OUT transfer may take (the printer stops taking data when its buffer is full). */
  writeTimeoutMs?: number;
  queryTimeoutMs?: number;
  chunkBytes?: number;
  /** The printer's OS queue, used for sends when the USB device cannot be claimed. */
  fallback?: PrinterTransport;
}

export const usbZebraDefaults = { writeTimeoutMs: 10_000, queryTimeoutMs: 3000, chunkBytes: 16 * 1024 } as const;

const PRINTER_CLASS = 7;
const READ_LENGTH = 1024;
// After a query timed out its answer may still come; reading with this short a wait drains it.
const DRAIN_WAIT_MS = 25;
const DRAIN_MAX_READS = 20;

export interface UsbZebraInfo {
  vendorId: number;
  productId: number;
  serialNumber: string | null;
  productName: string | null;
  manufacturerName: string | null;
}

/** The Zebras plugged in by USB. */
export async function findZebraUsbDevices(backend: UsbBackend): Promise<UsbZebraInfo[]> {
  const devices = await backend.getDevices();
  return devices
    .filter((device) => device.vendorId === ZEBRA_USB_VENDOR_ID)
    .map((device) => ({
      vendorId: device.vendorId,
      productId: device.productId,
      serialNumber: device.serialNumber ?? null,
      productName: device.productName ?? null,
      manufacturerName: device.manufacturerName ?? null,
    }));
}

export interface PrinterInterface {
  configurationValue: number;
  interfaceNumber: number;
  alternateSetting: number;
  outEndpoint: number;
  /** Absent on a printer that cannot answer (unidirectional). */
  inEndpoint: number | null;
}

/** The printer-class interface with a bulk OUT endpoint (any interface with one if no printer class is declared). */
export function findPrinterInterface(configurations: UsbConfigurationInfo[]): PrinterInterface | null {
  const candidates: PrinterInterface[] = [];
  for (const configuration of configurations) {
    for (const iface of configuration.interfaces) {
      for (const alternate of iface.alternates.length > 0 ? iface.alternates : [iface.alternate]) {
        const out = alternate.endpoints.find((endpoint) => endpoint.type === 'bulk' && endpoint.direction === 'out');
        if (!out) continue;
        const found: PrinterInterface = {
          configurationValue: configuration.configurationValue,
          interfaceNumber: iface.interfaceNumber,
          alternateSetting: alternate.alternateSetting,
          outEndpoint: out.endpointNumber,
          inEndpoint: alternate.endpoints.find((endpoint) => endpoint.type === 'bulk' && endpoint.direction === 'in')?.endpointNumber ?? null,
        };
        if (alternate.interfaceClass === PRINTER_CLASS) return found;
        candidates.push(found);
      }
    }
  }
  return candidates[0] ?? null;
}

interface Claim {
  device: UsbPrinterDevice;
  printer: PrinterInterface;
}

type UsbProblem = 'access-denied' | 'driver' | 'busy' | 'disconnected' | 'timeout' | 'stall' | 'failed';

/** Reads what went wrong from a USB error, whichever library or OS phrased it. */
export function classifyUsbError(error: unknown): UsbProblem {
  const text = libusbErrorText(error);
  if (/LIBUSB_ERROR_ACCESS|access (is )?denied|permission denied|EACCES|os error 13|SecurityError/i.test(text)) return 'access-denied';
  if (/LIBUSB_ERROR_NOT_SUPPORTED|not supported|NotSupportedError|no (usable )?driver/i.test(text)) return 'driver';
  if (/LIBUSB_ERROR_BUSY|resource busy|device or resource busy|EBUSY|os error 16|already claimed|in use/i.test(text)) return 'busy';
  if (/LIBUSB_ERROR_NO_DEVICE|no such device|ENODEV|os error 19|disconnected|NotFoundError|device (was )?(removed|gone)/i.test(text)) {
    return 'disconnected';
  }
  if (/LIBUSB_ERROR_TIMEOUT|timed? ?out|ETIMEDOUT/i.test(text)) return 'timeout';
  if (/LIBUSB_ERROR_PIPE|stall/i.test(text)) return 'stall';
  return 'failed';
}

export class UsbZebraTransport implements StatusTransport {
  readonly kind = 'usb-zebra' as const;
  readonly format = 'zpl' as const;
  readonly description: string;
  private readonly settings: { writeTimeoutMs: number; queryTimeoutMs: number; chunkBytes: number };
  private readonly lock = createSemaphore(1);
  private claim: Claim | null = null;
  private unreadAnswer = false;
  private claims = 0;

  constructor(private readonly options: UsbZebraOptions) {
    this.settings = {
      writeTimeoutMs: options.writeTimeoutMs ?? usbZebraDefaults.writeTimeoutMs,
      queryTimeoutMs: options.queryTimeoutMs ?? usbZebraDefaults.queryTimeoutMs,
      chunkBytes: options.chunkBytes ?? usbZebraDefaults.chunkBytes,
    };
    this.description = options.serialNumber ? `the USB Zebra ${options.serialNumber}` : 'the USB Zebra';
  }
  /** True while the device is open and claimed. */
  get connected(): boolean {
    return this.claim?.device.opened ?? false;
  }

  /** Times the device was opened and claimed: a re-plugged cable may bring another printer, so it is identified again. */
  get connectionCount(): number {
    return this.claims;
  }


  send(data: Uint8Array, options: SendOptions = {}): Promise<SendResult> {
    return this.lock.run(async () => {
      const total = data.byteLength;
      let claim: Claim;
      try {
        claim = await this.ensureClaimed();
      } catch (error) {
        const fallback = this.options.fallback;
        if (error instanceof PrinterTransportError && error.fallback === 'os-queue' && fallback) {
          const result = await fallback.send(data, { ...options, confirm: false });
          return { ...result, route: 'fallback-os-queue' };
        }
        throw error;
      }
      let written = 0;
      try {
        while (written < total) {
          if (options.signal?.aborted) throw new Cancelled();
          const chunk = data.subarray(written, Math.min(written + this.settings.chunkBytes, total));
          const result = await claim.device.transferOut(claim.printer.outEndpoint, chunk, this.settings.writeTimeoutMs);
          if (result.status !== 'ok') throw new Error(`transfer status ${result.status}`);
          written += Math.min(result.bytesWritten, chunk.byteLength);
          if (result.bytesWritten <= 0) throw new Error('transfer status stall: nothing was taken');
        }
      } catch (error) {
        await this.release();
        throw this.failure(error, 'write', { delivery: deliveryOf(written, total), bytesWritten: written, totalBytes: total });
      }
      if (options.confirm === false || claim.printer.inEndpoint === null) return { bytesWritten: total, confirmed: false };
      const confirmTimeoutMs = this.settings.queryTimeoutMs;
      try {
        const answer = await this.ask(claim, hostStatusQuery, confirmTimeoutMs, options.signal);
        return { bytesWritten: total, confirmed: true, status: parseHostStatus(answer) };
      } catch (error) {
        await this.releaseUnlessTimeout(error);
        const delivery = total === 0 ? 'none' : 'unconfirmed';
        throw this.failure(error, 'confirm', { delivery, bytesWritten: total, totalBytes: total }, hostStatusQuery, confirmTimeoutMs);
      }
    });
  }

  query(query: ZebraQuery, options: QueryOptions = {}): Promise<string> {
    return this.lock.run(async () => {
      const claim = await this.ensureClaimed();
      const timeoutMs = options.timeoutMs ?? this.settings.queryTimeoutMs;
      try {
        return await this.ask(claim, query, timeoutMs, options.signal);
      } catch (error) {
        await this.releaseUnlessTimeout(error);
        throw this.failure(error, 'query', { delivery: 'none' }, query, timeoutMs);
      }
    });
  }

  close(): Promise<void> {
    return this.lock.run(() => this.release());
  }

  private async ensureClaimed(): Promise<Claim> {
    if (this.claim?.device.opened) return this.claim;
    this.claim = null;
    let devices: UsbPrinterDevice[];
    try {
      devices = await (await this.options.backend()).getDevices();
    } catch (error) {
      throw new PrinterTransportError('PRINTER_OFFLINE', 'This computer’s USB devices cannot be read by the station.', {
        failure: 'service-unavailable',
        delivery: 'none',
        fallback: 'os-queue',
        details: [libusbErrorText(error)],
        cause: error,
      });
    }
    const device = devices.find(
      (candidate) =>
        candidate.vendorId === ZEBRA_USB_VENDOR_ID &&
        (this.options.productId === undefined || candidate.productId === this.options.productId) &&
        (this.options.serialNumber === undefined || candidate.serialNumber === this.options.serialNumber),
    );
    if (!device) {
      throw new PrinterTransportError(
        'PRINTER_OFFLINE',
        `${capital(this.description)} is not connected. Check its USB cable and that it is switched on.`,
        { failure: 'disconnected', delivery: 'none' },
      );
    }
    try {
      if (!device.opened) await device.open();
      const printer = findPrinterInterface(device.configuration ? [device.configuration] : device.configurations);
      if (!printer) {
        throw new PrinterTransportError('PRINTER_ERROR', `${capital(this.description)} has no USB interface to send labels to.`, {
          failure: 'failed',
          delivery: 'none',
        });
      }
      if (device.configuration?.configurationValue !== printer.configurationValue) {
        await device.selectConfiguration(printer.configurationValue);
      }
      await this.claimInterface(device, printer.interfaceNumber);
      this.claim = { device, printer };
      this.claims += 1;
      this.unreadAnswer = false;
      return this.claim;
    } catch (error) {
      await device.close().catch(() => undefined);
      if (error instanceof PrinterTransportError) throw error;
      throw this.failure(error, 'claim', { delivery: 'none' });
    }
  }

  private async claimInterface(device: UsbPrinterDevice, interfaceNumber: number): Promise<void> {
    try {
      await device.claimInterface(interfaceNumber);
    } catch (error) {
      // On Linux the usblp driver binds to every USB printer; unbinding it is how one claims the device.
      if (classifyUsbError(error) !== 'busy' || this.options.platform !== 'linux' || !device.detachKernelDriver) throw error;
      await device.detachKernelDriver(interfaceNumber);
      await device.claimInterface(interfaceNumber);
    }
  }

  /** A timeout leaves the device usable (its late answer is drained); anything else starts afresh next time. */
  private async releaseUnlessTimeout(error: unknown): Promise<void> {
    if (classifyUsbError(error) !== 'timeout') await this.release();
  }

  private async release(): Promise<void> {
    const claim = this.claim;
    this.claim = null;
    if (!claim) return;
    await claim.device.releaseInterface(claim.printer.interfaceNumber).catch(() => undefined);
    await claim.device.close().catch(() => undefined);
  }

  private async ask(claim: Claim, query: ZebraQuery, timeoutMs: number, signal: AbortSignal | undefined): Promise<string> {
    const inEndpoint = claim.printer.inEndpoint;
    if (inEndpoint === null) {
      throw new PrinterTransportError('PRINTER_ERROR', `${capital(this.description)} cannot answer status questions over USB.`, {
        failure: 'failed',
        delivery: 'none',
      });
    }
    if (this.unreadAnswer) await this.drain(claim.device, inEndpoint);
    await claim.device.transferOut(claim.printer.outEndpoint, new TextEncoder().encode(queryCommand(query)), this.settings.writeTimeoutMs);
    const deadline = Date.now() + timeoutMs;
    let answer = '';
    for (;;) {
      if (signal?.aborted) throw new Cancelled();
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        this.unreadAnswer = true;
        throw new Error('LIBUSB_ERROR_TIMEOUT: no answer');
      }
      let result: { data?: DataView; status: string };
      try {
        result = await claim.device.transferIn(inEndpoint, READ_LENGTH, remaining);
      } catch (error) {
        if (classifyUsbError(error) === 'timeout') this.unreadAnswer = true;
        throw error;
      }
      if (result.data) answer += latin1(result.data);
      if (isQueryAnswered(query, answer)) return answer;
    }
  }

  private async drain(device: UsbPrinterDevice, inEndpoint: number): Promise<void> {
    for (let read = 0; read < DRAIN_MAX_READS; read += 1) {
      try {
        const result = await device.transferIn(inEndpoint, READ_LENGTH, DRAIN_WAIT_MS);
        if (!result.data || result.data.byteLength === 0) break;
      } catch {
        break;
      }
    }
    this.unreadAnswer = false;
  }

  private failure(
    error: unknown,
    stage: 'claim' | 'write' | 'confirm' | 'query',
    facts: { delivery: Delivery; bytesWritten?: number; totalBytes?: number },
    query: ZebraQuery = hostStatusQuery,
    queryTimeoutMs = this.settings.queryTimeoutMs,
  ): PrinterTransportError {
    if (error instanceof PrinterTransportError) return error;
    const base = { ...facts, cause: error, details: [libusbErrorText(error)] };
    if (error instanceof Cancelled) {
      return new PrinterTransportError('PRINTER_ERROR', `Sending to ${this.description} was cancelled.`, { ...base, failure: 'cancelled' });
    }
    if (error instanceof ZebraReplyError) {
      return new PrinterTransportError('PRINTER_ERROR', error.message, { ...base, failure: 'bad-answer', details: [error.excerpt] });
    }
    const problem = classifyUsbError(error);
    const make = (code: 'PRINTER_ERROR' | 'PRINTER_OFFLINE', failure: TransportFailure, message: string, fallback = false) =>
      new PrinterTransportError(code, message, { ...base, failure, ...(fallback ? { fallback: 'os-queue' as const } : {}) });
    switch (problem) {
      case 'access-denied':
        return make('PRINTER_ERROR', 'access-denied', accessAdvice(this.options.platform), true);
      case 'driver':
        return make('PRINTER_ERROR', 'driver', driverAdvice(this.options.platform), true);
      case 'busy':
        return make(
          'PRINTER_ERROR',
          'busy',
          'Another program or driver is using the USB printer. Close it, or print through the printer’s queue in the OS.',
          true,
        );
      case 'disconnected':
        return make('PRINTER_OFFLINE', 'disconnected', `${capital(this.description)} was unplugged or switched off.`);
      case 'timeout':
        if (stage === 'write') {
          return make(
            'PRINTER_OFFLINE',
            'write-timeout',
            `${capital(this.description)} stopped taking data for ${seconds(this.settings.writeTimeoutMs)}. Check it for paper, an open head or a pause.`,
          );
        }
        return make(
          'PRINTER_OFFLINE',
          'no-answer',
          `${capital(this.description)} did not answer the status request (${describeQuery(query)}) within ${seconds(queryTimeoutMs)}.`,
        );
      case 'stall':
        return make('PRINTER_ERROR', 'failed', `${capital(this.description)} refused the data (USB stall).`);
      case 'failed':
        return make('PRINTER_ERROR', 'failed', `${capital(this.description)} could not be used over USB.`, stage === 'claim');
    }
  }
}

export function createUsbZebraTransport(options: UsbZebraOptions): UsbZebraTransport {
  return new UsbZebraTransport(options);
}

/** What the OS needs before the station may open a USB printer itself. */
export function accessAdvice(platform: NodeJS.Platform): string {
  if (platform === 'linux') {
    return 'Linux does not let the station open the USB printer. Add the udev rule for Zebra printers (see docs/printing.md), unplug and replug the printer — or print through its CUPS queue.';
  }
  if (platform === 'win32') return driverAdvice(platform);
  return 'The OS did not let the station open the USB printer. Print through the printer’s queue in the OS instead.';
}

export function driverAdvice(platform: NodeJS.Platform): string {
  if (platform === 'win32') {
    return 'Windows has its printer driver on this USB device, so the station cannot open it directly. Install the WinUSB driver for it with Zadig (see docs/printing.md) — or print through the printer’s Windows queue.';
  }
  return 'No driver lets the station open this USB printer directly. Print through the printer’s queue in the OS instead.';
}

class Cancelled extends Error {
  constructor() {
    super('cancelled');
  }
}

/** An error as libusb, nusb and the OS word it: its name, its code and its message. */
function libusbErrorText(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return [error.name, typeof code === 'string' || typeof code === 'number' ? String(code) : '', error.message].filter(Boolean).join(': ');
  }
  return String(error);
}

function latin1(view: DataView): string {
  let text = '';
  for (let i = 0; i < view.byteLength; i += 1) text += String.fromCharCode(view.getUint8(i));
  return text;
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}
