// The virtual Zebra printer: what the rest of the sandbox (CLI, control API) and tests use.
export {
  VirtualZebra,
  type ConnectionInfo,
  type DiscardReason,
  type DiscardedFormat,
  type FaultChange,
  type ListenOptions,
  type PrintedLabel,
  type PrinterFaults,
  type PrinterFaultsPatch,
  type PrinterState,
  type ReceivedFormat,
  type StatusSnapshot,
  type VirtualZebraOptions,
  type VirtualZebraSettings,
  type VirtualZebraStats,
} from './virtual-zebra';
export { noFaults, printerFaultsPatchSchema, printerFaultsSchema, virtualZebraOptionsSchema } from './printer-settings';
