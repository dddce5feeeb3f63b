// The Windows spooler path cannot run here, so winspool.drv is replaced by koffi callbacks with the
// same signatures: the transport calls them through koffi exactly as it calls the DLL, so the
// DOC_INFO_1W struct, the out-parameters and the PRINTER_INFO_4W buffer are marshalled for real.
import koffi from 'koffi';
import { afterEach, describe, expect, it } from 'vitest';
import { PrinterTransportError } from '../../../src/main/printing/transports/transport';
import { WIN32, createWindowsRawTransport, listWindowsPrinters } from '../../../src/main/printing/transports/windows-spooler';
import {
  bindWinspool,
  declareWinspool,
  loadWinspool,
  type WinspoolDeclarations,
  type WinspoolFunctionName,
} from '../../../src/main/printing/transports/winspool-binding';

type Pointer = bigint;

interface FakePrinter {
  /** Attributes for EnumPrintersW (0x4: the default printer). */
  attributes: number;
  /** Error StartDocPrinterW gives instead of starting a job (e.g. a driver without RAW). */
  startDocError?: number;
  /** WritePrinter takes at most this many bytes per call. */
  takePerWrite?: number;
  /** WritePrinter fails with this error once this many bytes are in the job. */
  failWriteAfter?: { bytes: number; error: number };
}

interface Job {
  printer: string;
  docName: string | null;
  outputFile: string | null;
  datatype: string | null;
  bytes: number[];
  state: 'open' | 'done' | 'aborted';
}

/** A print spooler in memory, reached only through koffi function pointers. */
class FakeSpooler {
  readonly calls: WinspoolFunctionName[] = [];
  readonly jobs: Job[] = [];
  lastError = 0;
  private readonly handles = new Map<bigint, { printer: string; job: Job | null }>();
  private nextHandle = 0x1000n;
  private nextJobId = 41;
  private readonly registered: Pointer[] = [];

  constructor(
    readonly printers: Map<string, FakePrinter>,
    readonly declarations: WinspoolDeclarations,
  ) {}

  winspool() {
    return bindWinspool(koffi, this.declarations, (name, signature) => {
      // Anonymous: a named prototype would claim a global koffi type name once per spooler.
      const prototype = koffi.proto('__stdcall', null, signature.result, signature.params);
      const pointer = koffi.register(this.implementation(name), koffi.pointer(prototype));
      this.registered.push(pointer);
      return koffi.decode(pointer, prototype) as (...args: never[]) => unknown;
    });
  }

  release(): void {
    for (const pointer of this.registered.splice(0)) koffi.unregister(pointer);
  }

  private fail(error: number): false {
    this.lastError = error;
    return false;
  }

  private implementation(name: WinspoolFunctionName): (...args: never[]) => unknown {
    const log = <T extends unknown[], R>(fn: (...args: T) => R) => (...args: T): R => {
      this.calls.push(name);
      return fn(...args);
    };
    const handle = (value: Pointer) => this.handles.get(BigInt(value));
    const implementations: Record<WinspoolFunctionName, (...args: never[]) => unknown> = {
      OpenPrinterW: log((printer: string, out: Pointer, defaults: unknown) => {
        expect(defaults).toBeNull();
        if (!this.printers.has(printer)) return this.fail(WIN32.ERROR_INVALID_PRINTER_NAME);
        const id = this.nextHandle++;
        this.handles.set(id, { printer, job: null });
        koffi.encode(out, 'uint64_t', id);
        return true;
      }),
      StartDocPrinterW: log((h: Pointer, level: number, info: Pointer) => {
        const open = handle(h);
        if (!open || level !== 1) return this.fail(WIN32.ERROR_INVALID_HANDLE) && 0;
        const doc = koffi.decode(info, this.declarations.docInfo1) as { pDocName: string | null; pOutputFile: string | null; pDatatype: string | null };
        const setup = this.printers.get(open.printer);
        if (setup?.startDocError) {
          this.lastError = setup.startDocError;
          return 0;
        }
        open.job = { printer: open.printer, docName: doc.pDocName, outputFile: doc.pOutputFile, datatype: doc.pDatatype, bytes: [], state: 'open' };
        this.jobs.push(open.job);
        return this.nextJobId++;
      }),
      StartPagePrinter: log((h: Pointer) => Boolean(handle(h)?.job) || this.fail(WIN32.ERROR_INVALID_HANDLE)),
      WritePrinter: log((h: Pointer, data: Pointer, length: number, written: Pointer) => {
        const open = handle(h);
        if (!open?.job) return this.fail(WIN32.ERROR_INVALID_HANDLE);
        const setup = this.printers.get(open.printer);
        if (setup?.failWriteAfter && open.job.bytes.length >= setup.failWriteAfter.bytes) return this.fail(setup.failWriteAfter.error);
        const take = Math.min(length, setup?.takePerWrite ?? length);
        const bytes = koffi.decode(data, koffi.array('uint8_t', take, 'Array')) as number[];
        open.job.bytes.push(...bytes);
        koffi.encode(written, 'uint32_t', take);
        return true;
      }),
      EndPagePrinter: log((h: Pointer) => Boolean(handle(h)?.job) || this.fail(WIN32.ERROR_INVALID_HANDLE)),
      EndDocPrinter: log((h: Pointer) => {
        const open = handle(h);
        if (!open?.job) return this.fail(WIN32.ERROR_INVALID_HANDLE);
        open.job.state = 'done';
        open.job = null;
        return true;
      }),
      AbortPrinter: log((h: Pointer) => {
        const open = handle(h);
        if (!open?.job) return this.fail(WIN32.ERROR_INVALID_HANDLE);
        open.job.state = 'aborted';
        open.job = null;
        return true;
      }),
      ClosePrinter: log((h: Pointer) => this.handles.delete(BigInt(h)) || this.fail(WIN32.ERROR_INVALID_HANDLE)),
      EnumPrintersW: log(
        (flags: number, serverName: string | null, level: number, buffer: Pointer | null, size: number, needed: Pointer, returned: Pointer) => {
          expect(flags).toBe(0x2 | 0x4);
          expect(serverName).toBeNull();
          expect(level).toBe(4);
          const structSize = koffi.sizeof(this.declarations.printerInfo4);
          const names = [...this.printers.keys()];
          const stringBytes = names.map((printer) => (printer.length + 1) * 2);
          const total = structSize * names.length + stringBytes.reduce((sum, bytes) => sum + bytes, 0);
          koffi.encode(needed, 'uint32_t', total);
          if (buffer === null || size < total) return this.fail(WIN32.ERROR_INSUFFICIENT_BUFFER);
          // The strings live in the same buffer, after the records, as winspool lays them out.
          let offset = structSize * names.length;
          names.forEach((printer, index) => {
            koffi.encode(buffer, offset, koffi.array('char16_t', printer.length + 1), `${printer}\0`);
            koffi.encode(buffer, index * structSize, 'uint64_t', BigInt(buffer) + BigInt(offset));
            koffi.encode(buffer, index * structSize + 8, 'uint64_t', 0n);
            koffi.encode(buffer, index * structSize + 16, 'uint32_t', this.printers.get(printer)?.attributes ?? 0);
            offset += (printer.length + 1) * 2;
          });
          koffi.encode(returned, 'uint32_t', names.length);
          return true;
        },
      ),
      GetLastError: () => this.lastError,
    };
    return implementations[name];
  }
}

const spoolers: FakeSpooler[] = [];
afterEach(() => {
  for (const spooler of spoolers.splice(0)) spooler.release();
});

function spooler(printers: Record<string, FakePrinter>): FakeSpooler {
  const fake = new FakeSpooler(new Map(Object.entries(printers)), declareWinspool(koffi));
  spoolers.push(fake);
  return fake;
}

const zpl = new TextEncoder().encode('^XA^FO50,50^A0N,40,40^FDORDER 1001^FS^XZ');

describe('Windows spooler (winspool through koffi, faked)', () => {
  it('lays out DOC_INFO_1W and PRINTER_INFO_4W as the 64-bit Windows ABI does', () => {
    const { docInfo1, printerInfo4 } = declareWinspool(koffi);
    expect(koffi.sizeof(docInfo1)).toBe(24);
    expect(['pDocName', 'pOutputFile', 'pDatatype'].map((field) => koffi.offsetof(docInfo1, field))).toEqual([0, 8, 16]);
    expect(koffi.sizeof(printerInfo4)).toBe(24);
    expect(koffi.offsetof(printerInfo4, 'Attributes')).toBe(16);
  });

  it('prints raw ZPL: open, RAW document, page, write, end page, end document, close', async () => {
    const fake = spooler({ 'ZDesigner ZD421-203dpi ZPL': { attributes: 0 } });
    const winspool = fake.winspool();
    const transport = createWindowsRawTransport({ printerName: 'ZDesigner ZD421-203dpi ZPL', winspool: async () => winspool });
    const result = await transport.send(zpl, { jobName: 'Order 1001' });

    expect(fake.calls).toEqual(['OpenPrinterW', 'StartDocPrinterW', 'StartPagePrinter', 'WritePrinter', 'EndPagePrinter', 'EndDocPrinter', 'ClosePrinter']);
    expect(fake.jobs).toEqual([
      { printer: 'ZDesigner ZD421-203dpi ZPL', docName: 'Order 1001', outputFile: null, datatype: 'RAW', bytes: [...zpl], state: 'done' },
    ]);
    expect(result).toEqual({ bytesWritten: zpl.byteLength, confirmed: false, jobId: '41' });
  });

  it('keeps writing until the spooler has taken every byte', async () => {
    const fake = spooler({ Zebra: { attributes: 0, takePerWrite: 1000 } });
    const winspool = fake.winspool();
    const transport = createWindowsRawTransport({ printerName: 'Zebra', winspool: async () => winspool, chunkBytes: 4096 });
    const data = new Uint8Array(10_500).map((_, i) => 65 + (i % 26));
    await transport.send(data);
    expect(fake.calls.filter((call) => call === 'WritePrinter')).toHaveLength(11);
    expect(fake.jobs[0]?.bytes).toEqual([...data]);
  });

  it('says plainly that a printer does not exist', async () => {
    const fake = spooler({});
    const winspool = fake.winspool();
    const transport = createWindowsRawTransport({ printerName: 'Gone', winspool: async () => winspool });
    const error = (await transport.send(zpl).catch((caught: unknown) => caught)) as PrinterTransportError;
    expect(error).toBeInstanceOf(PrinterTransportError);
    expect(error.code).toBe('PRINTER_NOT_FOUND');
    expect(error.message).toBe('Windows has no printer named "Gone". Choose one from the list of printers.');
    expect(error.details).toEqual(['OpenPrinterW failed with Windows error 1801.']);
    expect(error.delivery).toBe('none');
    expect(fake.calls).toEqual(['OpenPrinterW']);
  });

  it('explains a driver that does not take RAW data, and closes the printer', async () => {
    const fake = spooler({ 'HP LaserJet (v4)': { attributes: 0, startDocError: WIN32.ERROR_INVALID_DATATYPE } });
    const winspool = fake.winspool();
    const transport = createWindowsRawTransport({ printerName: 'HP LaserJet (v4)', winspool: async () => winspool });
    const error = (await transport.send(zpl).catch((caught: unknown) => caught)) as PrinterTransportError;
    expect(error.code).toBe('PRINTER_ERROR');
    expect(error.failure).toBe('driver');
    expect(error.message).toContain('does not accept raw ZPL');
    expect(fake.calls).toEqual(['OpenPrinterW', 'StartDocPrinterW', 'ClosePrinter']);
  });

  it('deletes a job that failed half-way, so no cut-off label prints', async () => {
    const fake = spooler({ Zebra: { attributes: 0, takePerWrite: 8, failWriteAfter: { bytes: 16, error: WIN32.ERROR_PRINT_CANCELLED } } });
    const winspool = fake.winspool();
    const transport = createWindowsRawTransport({ printerName: 'Zebra', winspool: async () => winspool });
    const error = (await transport.send(zpl).catch((caught: unknown) => caught)) as PrinterTransportError;
    expect(error.failure).toBe('cancelled');
    expect(error.bytesWritten).toBe(16);
    expect(error.delivery).toBe('none');
    expect(error.details).toContain('The unfinished job was deleted from the queue.');
    expect(fake.jobs[0]?.state).toBe('aborted');
    expect(fake.calls.slice(-2)).toEqual(['AbortPrinter', 'ClosePrinter']);
  });

  it('reports a stopped spooler service as offline', async () => {
    const fake = spooler({});
    const winspool = fake.winspool();
    fake.printers.set('Zebra', { attributes: 0, startDocError: WIN32.RPC_S_SERVER_UNAVAILABLE });
    const transport = createWindowsRawTransport({ printerName: 'Zebra', winspool: async () => winspool });
    const error = (await transport.send(zpl).catch((caught: unknown) => caught)) as PrinterTransportError;
    expect(error.code).toBe('PRINTER_OFFLINE');
    expect(error.message).toBe('The Windows Print Spooler service is not running. Start it, then try again.');
  });

  it('stops at a cancel and deletes the started job', async () => {
    const fake = spooler({ Zebra: { attributes: 0 } });
    const winspool = fake.winspool();
    const transport = createWindowsRawTransport({ printerName: 'Zebra', winspool: async () => winspool });
    const controller = new AbortController();
    controller.abort();
    const error = (await transport.send(zpl, { signal: controller.signal }).catch((caught: unknown) => caught)) as PrinterTransportError;
    expect(error.failure).toBe('cancelled');
    expect(error.delivery).toBe('none');
    expect(fake.jobs[0]?.state).toBe('aborted');
  });

  it('lists printers with EnumPrintersW, sizing the buffer first', () => {
    const fake = spooler({ 'ZDesigner ZD421-203dpi ZPL': { attributes: 0x40 }, 'Microsoft Print to PDF': { attributes: 0x4 | 0x40 } });
    const queues = listWindowsPrinters(fake.winspool());
    expect(fake.calls).toEqual(['EnumPrintersW', 'EnumPrintersW']);
    expect(queues).toEqual([
      { name: 'ZDesigner ZD421-203dpi ZPL', system: 'windows', state: 'unknown', accepting: null, isDefault: false },
      { name: 'Microsoft Print to PDF', system: 'windows', state: 'unknown', accepting: null, isDefault: true },
    ]);
  });

  it('fails clearly where winspool.drv does not exist (this machine)', async () => {
    const transport = createWindowsRawTransport({ printerName: 'Zebra', winspool: loadWinspool });
    const error = (await transport.send(zpl).catch((caught: unknown) => caught)) as PrinterTransportError;
    expect(error.code).toBe('PRINTER_ERROR');
    expect(error.message).toBe('The Windows print spooler functions could not be loaded.');
  });
});
