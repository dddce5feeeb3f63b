// The virtual Zebra printer: what the rest of the sandbox (CLI, control API) and tests use.
export {
  VirtualZebra,
  powerCycleOptionsSchema,
  type ConfigurationCommand,
  type ConnectionInfo,
  type DiscardReason,
  type DiscardedFormat,
  type FaultChange,
  type ListenOptions,
  type PowerCycleOptions,
  type PrinterIdentityPatch,
  type PrintedLabel,
  type PrinterFaults,
  type PrinterFaultsPatch,
  type PrinterState,
  type ReceivedBytes,
  type ReceivedFormat,
  type StatusSnapshot,
  type VirtualZebraOptions,
  type VirtualZebraSettings,
  type VirtualZebraStats,
} from './virtual-zebra';
export { printerIdentityPatchSchema } from './printer-identity';
export { noFaults, printerFaultsPatchSchema, printerFaultsSchema, virtualZebraOptionsSchema } from './printer-settings';
