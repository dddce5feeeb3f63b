// The winspool.drv functions the Windows raw transport calls, declared for koffi. The types and
// signatures are built by a function (not at module load) so the same declarations serve the real
// DLL on Windows and, in tests, koffi callbacks that stand in for it on any OS: the arguments then
// go through koffi's real marshalling, struct layout included.
import type koffiModule from 'koffi';

type Koffi = typeof koffiModule;
/** Anything koffi accepts as a type: a type object, a type name, a direction marker. */
type KoffiType = Parameters<Koffi['out']>[0];

/** A printer handle as koffi hands it over: an opaque value to give back unchanged. */
export type PrinterHandle = unknown;

/** DOC_INFO_1W as JS: koffi converts the strings to UTF-16 for the call. */
export interface DocInfo1 {
  pDocName: string;
  pOutputFile: string | null;
  pDatatype: string;
}

export interface PrinterInfo4 {
  pPrinterName: string | null;
  pServerName: string | null;
  Attributes: number;
}

/** The functions, as koffi exposes them. Out-parameters are one-element arrays koffi fills in. */
export interface WinspoolFunctions {
  OpenPrinterW(name: string, handle: [PrinterHandle | null], defaults: null): boolean;
  StartDocPrinterW(handle: PrinterHandle, level: 1, docInfo: DocInfo1): number;
  StartPagePrinter(handle: PrinterHandle): boolean;
  WritePrinter(handle: PrinterHandle, data: Uint8Array, length: number, written: [number]): boolean;
  EndPagePrinter(handle: PrinterHandle): boolean;
  EndDocPrinter(handle: PrinterHandle): boolean;
  AbortPrinter(handle: PrinterHandle): boolean;
  ClosePrinter(handle: PrinterHandle): boolean;
  EnumPrintersW(
    flags: number,
    name: string | null,
    level: 4,
    buffer: Uint8Array | null,
    size: number,
    needed: [number],
    returned: [number],
  ): boolean;
  /** kernel32's GetLastError; koffi keeps the value of the last call's error for it. */
  GetLastError(): number;
}

export type WinspoolFunctionName = keyof WinspoolFunctions;

export interface WinspoolSignature {
  result: KoffiType;
  params: KoffiType[];
}

export interface WinspoolDeclarations {
  docInfo1: ReturnType<Koffi['struct']>;
  printerInfo4: ReturnType<Koffi['struct']>;
  signatures: Record<WinspoolFunctionName, WinspoolSignature>;
}

/** Anonymous koffi types (no global names, so declaring twice never clashes). */
export function declareWinspool(koffi: Koffi): WinspoolDeclarations {
  const handle = koffi.pointer(koffi.opaque());
  const wide = 'const char16_t *';
  const docInfo1 = koffi.struct({ pDocName: wide, pOutputFile: wide, pDatatype: wide });
  const printerInfo4 = koffi.struct({ pPrinterName: wide, pServerName: wide, Attributes: 'uint32_t' });
  const dwordOut = koffi.out(koffi.pointer('uint32_t'));
  return {
    docInfo1,
    printerInfo4,
    signatures: {
      OpenPrinterW: { result: 'bool', params: [wide, koffi.out(koffi.pointer(handle)), 'void *'] },
      StartDocPrinterW: { result: 'uint32_t', params: [handle, 'uint32_t', koffi.pointer(docInfo1)] },
      StartPagePrinter: { result: 'bool', params: [handle] },
      WritePrinter: { result: 'bool', params: [handle, 'const void *', 'uint32_t', dwordOut] },
      EndPagePrinter: { result: 'bool', params: [handle] },
      EndDocPrinter: { result: 'bool', params: [handle] },
      AbortPrinter: { result: 'bool', params: [handle] },
      ClosePrinter: { result: 'bool', params: [handle] },
      EnumPrintersW: { result: 'bool', params: ['uint32_t', wide, 'uint32_t', 'uint8_t *', 'uint32_t', dwordOut, dwordOut] },
      GetLastError: { result: 'uint32_t', params: [] },
    },
  };
}

export interface Winspool {
  functions: WinspoolFunctions;
  /** Reads `count` PRINTER_INFO_4W records from the buffer EnumPrintersW filled. */
  readPrinterInfo4(buffer: Uint8Array, count: number): PrinterInfo4[];
}

/** Builds the functions with `resolve`, which gives one koffi function per name and signature. */
export function bindWinspool(
  koffi: Koffi,
  declarations: WinspoolDeclarations,
  resolve: (name: WinspoolFunctionName, signature: WinspoolSignature) => (...args: never[]) => unknown,
): Winspool {
  const functions = Object.fromEntries(
    (Object.keys(declarations.signatures) as WinspoolFunctionName[]).map((name) => [name, resolve(name, declarations.signatures[name])]),
  ) as unknown as WinspoolFunctions;
  return {
    functions,
    readPrinterInfo4: (buffer, count) =>
      count === 0 ? [] : (koffi.decode(buffer, koffi.array(declarations.printerInfo4, count)) as PrinterInfo4[]),
  };
}

/** The real winspool.drv and kernel32.dll. Windows only: loading them elsewhere throws. */
export async function loadWinspool(): Promise<Winspool> {
  const koffi = (await import('koffi')).default;
  const declarations = declareWinspool(koffi);
  const winspool = koffi.load('winspool.drv');
  const kernel32 = koffi.load('kernel32.dll');
  return bindWinspool(koffi, declarations, (name, signature) =>
    (name === 'GetLastError' ? kernel32 : winspool).func('__stdcall', name, signature.result, signature.params),
  );
}
