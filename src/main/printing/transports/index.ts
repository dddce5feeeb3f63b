/** Ways to reach a printer: the interface, its error, and every implementation. */
export {
  PrinterTransportError,
  canQuery,
  deliveryOf,
  type Delivery,
  type DocumentFormat,
  type PrinterTransport,
  type QueryOptions,
  type SendOptions,
  type SendResult,
  type StatusTransport,
  type TransportErrorFacts,
  type TransportFailure,
} from './transport';
export { createPrinterTransports, type PrinterTransports, type PrinterTransportsOptions } from './printer-transports';
export { NetworkZebraTransport, createNetworkZebraTransport, networkZebraDefaults, type NetworkZebraOptions } from './network-zebra';
export {
  CupsQueueTransport,
  createCupsQueueTransport,
  listCupsQueues,
  parseLpJobId,
  parseLpstatQueues,
  type CupsListOptions,
  type CupsQueueOptions,
} from './cups';
export { WIN32, WindowsRawTransport, createWindowsRawTransport, listWindowsPrinters, win32Failure, type WindowsRawOptions } from './windows-spooler';
export {
  bindWinspool,
  declareWinspool,
  loadWinspool,
  type DocInfo1,
  type PrinterHandle,
  type PrinterInfo4,
  type Winspool,
  type WinspoolDeclarations,
  type WinspoolFunctionName,
  type WinspoolFunctions,
  type WinspoolSignature,
} from './winspool-binding';
export {
  UsbZebraTransport,
  accessAdvice,
  classifyUsbError,
  createUsbZebraTransport,
  driverAdvice,
  findPrinterInterface,
  findZebraUsbDevices,
  usbZebraDefaults,
  type PrinterInterface,
  type UsbZebraInfo,
  type UsbZebraOptions,
} from './usb-zebra';
export { loadUsbBackend, type UsbBackend, type UsbConfigurationInfo, type UsbPrinterDevice } from './usb-device';
export { SumatraPdfTransport, createSumatraPdfTransport, sumatraCandidates, type SumatraPdfOptions, type SumatraScale } from './windows-pdf';
export { C_LOCALE, CommandNotFoundError, createCommandRunner, type CommandOptions, type CommandResult, type CommandRunner } from './command-runner';
export type { OsQueue } from './os-queue';
