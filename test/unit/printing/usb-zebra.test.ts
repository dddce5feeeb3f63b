// Direct USB cannot run here (no USB bus, no printer), so the device is an injected stand-in with
// the WebUSB shape the `usb` package gives: it records every call, takes bulk OUT data the way a
// Zebra does and answers ~HS / ~HI on bulk IN, in 64-byte packets.
import { describe, expect, it } from 'vitest';
import { PrinterTransportError, type PrinterTransport, type SendOptions } from '../../../src/main/printing/transports/transport';
import type { UsbConfigurationInfo, UsbPrinterDevice } from '../../../src/main/printing/transports/usb-device';
import { classifyUsbError, createUsbZebraTransport, findPrinterInterface, findZebraUsbDevices } from '../../../src/main/printing/transports/usb-zebra';

const HS_ANSWER = '\x02030,0,0,1184,001,0,0,0,000,0,0,0\x03\r\n\x02001,0,0,0,1,2,6,0,00000000,1,000\x03\r\n\x021234,0\x03\r\n';
const HI_ANSWER = '\x02ZD421-203dpi,V84.20.18Z,8,8176KB\x03\r\n';

const printerConfiguration = (): UsbConfigurationInfo => ({
  configurationValue: 1,
  interfaces: [
    {
      interfaceNumber: 0,
      claimed: false,
      alternate: {
        alternateSetting: 0,
        interfaceClass: 7,
        interfaceSubclass: 1,
        interfaceProtocol: 2,
        endpoints: [
          { endpointNumber: 1, direction: 'out', type: 'bulk', packetSize: 64 },
          { endpointNumber: 2, direction: 'in', type: 'bulk', packetSize: 64 },
        ],
      },
      alternates: [],
    },
  ],
});

interface FakeBehaviour {
  claimErrors?: Error[];
  /** transferOut takes at most this many bytes per call. */
  takePerTransfer?: number;
  /** transferOut fails with this error once this many label bytes have arrived. */
  failOutAfter?: { bytes: number; error: Error };
  answerQueries?: boolean;
}

class FakeZebra implements UsbPrinterDevice {
  readonly vendorId = 0x0a5f;
  readonly productName = 'ZTC ZD421-203dpi ZPL';
  readonly manufacturerName = 'Zebra Technologies';
  readonly calls: string[] = [];
  /** Label bytes received (queries excluded). */
  received = '';
  /** Bytes waiting on the IN endpoint. */
  inbound = '';
  opened = false;
  configuration: UsbConfigurationInfo | null = printerConfiguration();
  readonly configurations = [printerConfiguration()];

  constructor(
    readonly serialNumber: string,
    readonly behaviour: FakeBehaviour = {},
    readonly productId = 0x0185,
  ) {}

  async open(): Promise<void> {
    this.calls.push('open');
    this.opened = true;
  }
  async close(): Promise<void> {
    this.calls.push('close');
    this.opened = false;
  }
  async selectConfiguration(value: number): Promise<void> {
    this.calls.push(`selectConfiguration(${value})`);
  }
  async claimInterface(interfaceNumber: number): Promise<void> {
    this.calls.push(`claimInterface(${interfaceNumber})`);
    const error = this.behaviour.claimErrors?.shift();
    if (error) throw error;
  }
  async releaseInterface(interfaceNumber: number): Promise<void> {
    this.calls.push(`releaseInterface(${interfaceNumber})`);
  }
  async detachKernelDriver(interfaceNumber: number): Promise<void> {
    this.calls.push(`detachKernelDriver(${interfaceNumber})`);
  }
  async transferOut(endpoint: number, data: Uint8Array, timeoutMs?: number) {
    const text = new TextDecoder('latin1').decode(data);
    this.calls.push(`transferOut(${endpoint}, ${data.byteLength} bytes, ${timeoutMs} ms)`);
    if (text === '~HS' || text === '~HI') {
      if (this.behaviour.answerQueries !== false) this.inbound += text === '~HS' ? HS_ANSWER : HI_ANSWER;
      return { bytesWritten: data.byteLength, status: 'ok' as const };
    }
    const fail = this.behaviour.failOutAfter;
    if (fail && this.received.length >= fail.bytes) throw fail.error;
    const take = Math.min(data.byteLength, this.behaviour.takePerTransfer ?? data.byteLength);
    this.received += text.slice(0, take);
    return { bytesWritten: take, status: 'ok' as const };
  }
  async transferIn(endpoint: number, length: number, timeoutMs = 1000) {
    this.calls.push(`transferIn(${endpoint})`);
    if (this.inbound.length === 0) {
      // A real device with nothing to say lets the read run out its time; this one says so at once.
      throw new Error(`LIBUSB_ERROR_TIMEOUT: Operation timed out after ${timeoutMs} ms`);
    }
    const packet = this.inbound.slice(0, Math.min(64, length));
    this.inbound = this.inbound.slice(packet.length);
    return { data: new DataView(Uint8Array.from(packet, (char) => char.charCodeAt(0)).buffer), status: 'ok' as const };
  }
}

const otherDevice = { ...new FakeZebra('KEYBOARD'), vendorId: 0x046d } as unknown as UsbPrinterDevice;

function transport(devices: UsbPrinterDevice[], options: { platform?: NodeJS.Platform; serialNumber?: string; fallback?: PrinterTransport } = {}) {
  let listings = 0;
  const usb = createUsbZebraTransport({
    backend: async () => ({
      getDevices: async () => {
        listings += 1;
        return devices;
      },
    }),
    platform: options.platform ?? 'linux',
    queryTimeoutMs: 60,
    writeTimeoutMs: 500,
    chunkBytes: 64,
    ...(options.serialNumber ? { serialNumber: options.serialNumber } : {}),
    ...(options.fallback ? { fallback: options.fallback } : {}),
  });
  return { usb, listings: () => listings };
}

async function failure(promise: Promise<unknown>): Promise<PrinterTransportError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(PrinterTransportError);
  return error as PrinterTransportError;
}

const label = `^XA^FO50,50^A0N,40,40^FDORDER 1001^FS^FX${'x'.repeat(100)}^FS^XZ`;
const bytes = new TextEncoder().encode(label);

describe('USB Zebra transport (injected device)', () => {
  it('lists only Zebra devices (vendor 0x0A5F)', async () => {
    const zebras = await findZebraUsbDevices({ getDevices: async () => [otherDevice, new FakeZebra('D4J123')] });
    expect(zebras).toEqual([
      { vendorId: 0x0a5f, productId: 0x0185, serialNumber: 'D4J123', productName: 'ZTC ZD421-203dpi ZPL', manufacturerName: 'Zebra Technologies' },
    ]);
  });

  it('claims the printer interface, sends ZPL in bulk OUT chunks and confirms with ~HS over bulk IN', async () => {
    const zebra = new FakeZebra('D4J123');
    const { usb } = transport([otherDevice, zebra]);
    const result = await usb.send(bytes);

    expect(zebra.received).toBe(label);
    expect(result).toMatchObject({ bytesWritten: bytes.byteLength, confirmed: true, status: { formatsInBuffer: 1 } });
    expect(zebra.calls).toEqual([
      'open',
      'claimInterface(0)',
      'transferOut(1, 64 bytes, 500 ms)',
      'transferOut(1, 64 bytes, 500 ms)',
      `transferOut(1, ${bytes.byteLength - 128} bytes, 500 ms)`,
      'transferOut(1, 3 bytes, 500 ms)',
      // The ~HS answer is 107 bytes: two 64-byte packets.
      'transferIn(2)',
      'transferIn(2)',
    ]);
    await usb.send(bytes, { confirm: false });
    expect(zebra.calls.filter((call) => call === 'open')).toHaveLength(1);
    await usb.close();
    expect(zebra.calls.slice(-2)).toEqual(['releaseInterface(0)', 'close']);
  });

  it('resends the rest when a transfer takes only part of a chunk', async () => {
    const zebra = new FakeZebra('D4J123', { takePerTransfer: 10 });
    const { usb } = transport([zebra]);
    await usb.send(bytes, { confirm: false });
    expect(zebra.received).toBe(label);
  });

  it('picks the printer by serial number and says when it is not plugged in', async () => {
    const first = new FakeZebra('AAA');
    const second = new FakeZebra('BBB');
    const { usb } = transport([first, second], { serialNumber: 'BBB' });
    await usb.send(bytes, { confirm: false });
    expect(first.received).toBe('');
    expect(second.received).toBe(label);

    const missing = transport([first], { serialNumber: 'CCC' }).usb;
    const error = await failure(missing.send(bytes));
    expect(error.code).toBe('PRINTER_OFFLINE');
    expect(error.message).toBe('The USB Zebra CCC is not connected. Check its USB cable and that it is switched on.');
    expect(error.fallback).toBeUndefined();
  });

  it('explains the udev rule on Linux when access is denied, and offers the OS queue', async () => {
    const zebra = new FakeZebra('D4J123', { claimErrors: [new Error('LIBUSB_ERROR_ACCESS: Access denied (insufficient permissions)')] });
    const error = await failure(transport([zebra]).usb.send(bytes));
    expect(error.code).toBe('PRINTER_ERROR');
    expect(error.failure).toBe('access-denied');
    expect(error.message).toContain('udev rule');
    expect(error.message).toContain('CUPS queue');
    expect(error.fallback).toBe('os-queue');
    expect(error.delivery).toBe('none');
    expect(zebra.calls).toEqual(['open', 'claimInterface(0)', 'close']);
  });

  it('explains WinUSB and Zadig on Windows when the device has another driver', async () => {
    const zebra = new FakeZebra('D4J123', { claimErrors: [new Error('LIBUSB_ERROR_NOT_SUPPORTED')] });
    const error = await failure(transport([zebra], { platform: 'win32' }).usb.send(bytes));
    expect(error.failure).toBe('driver');
    expect(error.message).toContain('WinUSB driver');
    expect(error.message).toContain('Zadig');
  });

  it('sends through the printer’s OS queue when the device cannot be claimed', async () => {
    const zebra = new FakeZebra('D4J123', { claimErrors: [new Error('Access denied (os error 13)')] });
    const queued: Array<{ data: Uint8Array; options: SendOptions | undefined }> = [];
    const queue: PrinterTransport = {
      kind: 'os-queue-raw',
      format: 'zpl',
      description: 'CUPS queue "zebra_usb"',
      send: async (data, options) => {
        queued.push({ data, options });
        return { bytesWritten: data.byteLength, confirmed: false, jobId: 'zebra_usb-3' };
      },
      close: async () => undefined,
    };
    const result = await transport([zebra], { fallback: queue }).usb.send(bytes, { jobName: 'Order 1001' });
    expect(result).toEqual({ bytesWritten: bytes.byteLength, confirmed: false, jobId: 'zebra_usb-3', route: 'fallback-os-queue' });
    expect(queued).toHaveLength(1);
    expect(queued[0]?.options).toEqual({ jobName: 'Order 1001', confirm: false });
  });

  it('unbinds the Linux printer driver when it holds the interface', async () => {
    const zebra = new FakeZebra('D4J123', { claimErrors: [new Error('LIBUSB_ERROR_BUSY: Resource busy')] });
    await transport([zebra]).usb.send(bytes, { confirm: false });
    expect(zebra.calls.slice(0, 4)).toEqual(['open', 'claimInterface(0)', 'detachKernelDriver(0)', 'claimInterface(0)']);
    expect(zebra.received).toBe(label);

    const mac = new FakeZebra('D4J123', { claimErrors: [new Error('LIBUSB_ERROR_BUSY: Resource busy')] });
    const error = await failure(transport([mac], { platform: 'darwin' }).usb.send(bytes));
    expect(error.failure).toBe('busy');
    expect(error.fallback).toBe('os-queue');
    expect(mac.calls).not.toContain('detachKernelDriver(0)');
  });

  it('reports a stalled printer with the bytes that went out, and starts afresh next time', async () => {
    const zebra = new FakeZebra('D4J123', { failOutAfter: { bytes: 128, error: new Error('LIBUSB_ERROR_TIMEOUT') } });
    const { usb, listings } = transport([zebra]);
    const error = await failure(usb.send(bytes));
    expect(error.code).toBe('PRINTER_OFFLINE');
    expect(error.failure).toBe('write-timeout');
    expect(error.bytesWritten).toBe(128);
    expect(error.delivery).toBe('partial');
    expect(error.message).toBe('The USB Zebra stopped taking data for 0.5 s. Check it for paper, an open head or a pause.');
    expect(zebra.calls.slice(-2)).toEqual(['releaseInterface(0)', 'close']);

    zebra.behaviour.failOutAfter = undefined;
    await usb.send(bytes, { confirm: false });
    expect(listings()).toBe(2);
  });

  it('reports an unplugged printer as offline', async () => {
    const zebra = new FakeZebra('D4J123', { failOutAfter: { bytes: 0, error: new Error('LIBUSB_ERROR_NO_DEVICE: No such device (it may have been disconnected)') } });
    const error = await failure(transport([zebra]).usb.send(bytes));
    expect(error.code).toBe('PRINTER_OFFLINE');
    expect(error.failure).toBe('disconnected');
    expect(error.delivery).toBe('none');
  });

  it('treats a query without an answer as a fault, and never mistakes its late answer for the next one', async () => {
    const zebra = new FakeZebra('D4J123', { answerQueries: false });
    const { usb } = transport([zebra]);
    const error = await failure(usb.query({ kind: 'host-status' }));
    expect(error.code).toBe('PRINTER_OFFLINE');
    expect(error.failure).toBe('no-answer');
    expect(error.message).toBe('The USB Zebra did not answer the status request (~HS) within 0.1 s.');

    // The ~HS answer turns up late; the next question must get its own answer.
    zebra.inbound = HS_ANSWER;
    zebra.behaviour.answerQueries = true;
    expect(await usb.query({ kind: 'identification' })).toBe(HI_ANSWER);
  });

  it('marks a send whose confirmation never came as unconfirmed', async () => {
    const zebra = new FakeZebra('D4J123', { answerQueries: false });
    const error = await failure(transport([zebra]).usb.send(bytes));
    expect(error.failure).toBe('no-answer');
    expect(error.delivery).toBe('unconfirmed');
    expect(zebra.received).toBe(label);
  });
});

describe('USB helpers', () => {
  it('classifies the ways libusb, nusb and the OS word their errors', () => {
    expect(classifyUsbError(new Error('LIBUSB_ERROR_ACCESS'))).toBe('access-denied');
    expect(classifyUsbError(new Error('Permission denied (os error 13)'))).toBe('access-denied');
    expect(classifyUsbError(Object.assign(new Error('denied'), { name: 'SecurityError' }))).toBe('access-denied');
    expect(classifyUsbError(new Error('LIBUSB_ERROR_NOT_SUPPORTED'))).toBe('driver');
    expect(classifyUsbError(new Error('Device or resource busy (os error 16)'))).toBe('busy');
    expect(classifyUsbError(new Error('No such device (os error 19)'))).toBe('disconnected');
    expect(classifyUsbError(new Error('Operation timed out'))).toBe('timeout');
    expect(classifyUsbError(new Error('LIBUSB_ERROR_PIPE'))).toBe('stall');
    expect(classifyUsbError('something else')).toBe('failed');
  });

  it('finds the printer-class interface among others', () => {
    const hid = { ...printerConfiguration().interfaces[0]!, interfaceNumber: 0 };
    hid.alternate = { ...hid.alternate, interfaceClass: 3, endpoints: [{ endpointNumber: 3, direction: 'out', type: 'bulk', packetSize: 64 }] };
    const printer = { ...printerConfiguration().interfaces[0]!, interfaceNumber: 1 };
    expect(findPrinterInterface([{ configurationValue: 1, interfaces: [hid, printer] }])).toEqual({
      configurationValue: 1,
      interfaceNumber: 1,
      alternateSetting: 0,
      outEndpoint: 1,
      inEndpoint: 2,
    });
    expect(findPrinterInterface([{ configurationValue: 1, interfaces: [hid] }])?.outEndpoint).toBe(3);
    expect(findPrinterInterface([{ configurationValue: 1, interfaces: [] }])).toBeNull();
  });
});
