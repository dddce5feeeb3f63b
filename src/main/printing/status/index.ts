/** Status read-back from Zebras: faults, buffer, identity. */
export {
  PrinterStatusReader,
  faultError,
  readPrinterStatus,
  statusError,
  type PrinterStatusReport,
  type StatusReadOptions,
} from './printer-status';
export { SGD, readPrinterIdentity, type IdentityReadOptions, type PrinterIdentity } from './printer-identity';
