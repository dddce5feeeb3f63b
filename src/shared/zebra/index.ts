/** Pure Zebra helpers: status answers, queries, faults and printer addresses. No Node, no DOM. */
export { ETX, STX, hasFrames, scanFrames, type FrameScan } from './framing';
export { isHostStatusComplete, parseHostStatus, type HostStatus, type PrintMode } from './host-status';
export {
  errorFlagBits,
  isExtendedStatusComplete,
  parseExtendedStatus,
  warningFlagBits,
  type ErrorFlag,
  type ExtendedStatus,
  type FlagGroup,
  type WarningFlag,
} from './extended-status';
export { dpiFromDotsPerMm, isIdentificationComplete, parseHostIdentification, type HostIdentification } from './identification';
export { isSgdReplyComplete, parseSgdReply, sgdGetvarCommand } from './sgd';
export {
  describeQuery,
  extendedStatusQuery,
  getvarQuery,
  hostStatusQuery,
  identificationQuery,
  isQueryAnswered,
  queryCommand,
  type ZebraQuery,
} from './queries';
export { faultSentence, faultsFromStatus, printerFault, type PrinterFault, type PrinterFaultKind } from './faults';
export {
  OsQueueNameSchema,
  PrinterAddressSchema,
  PrinterHostSchema,
  ZEBRA_USB_VENDOR_ID,
  describePrinterAddress,
  printerAddressKey,
  type PrinterAddress,
  type PrinterAddressInput,
  type PrinterAddressKind,
} from './printer-address';
export { ZebraReplyError, printable } from './reply-error';
