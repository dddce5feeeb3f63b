// The part of a WebUSB device the USB transport uses. The `usb` package (v3) gives devices of this
// shape; tests give their own. Keeping it this small makes the transport's needs plain.

export interface UsbEndpointInfo {
  endpointNumber: number;
  direction: 'in' | 'out';
  type: 'bulk' | 'interrupt' | 'isochronous';
  packetSize: number;
}

export interface UsbAlternateInfo {
  alternateSetting: number;
  interfaceClass: number;
  interfaceSubclass: number;
  interfaceProtocol: number;
  endpoints: UsbEndpointInfo[];
}

export interface UsbInterfaceInfo {
  interfaceNumber: number;
  claimed: boolean;
  alternate: UsbAlternateInfo;
  alternates: UsbAlternateInfo[];
}

export interface UsbConfigurationInfo {
  configurationValue: number;
  interfaces: UsbInterfaceInfo[];
}

export type UsbTransferStatus = 'ok' | 'stall' | 'babble';

export interface UsbPrinterDevice {
  readonly vendorId: number;
  readonly productId: number;
  readonly serialNumber?: string | null;
  readonly productName?: string | null;
  readonly manufacturerName?: string | null;
  readonly opened: boolean;
  readonly configuration: UsbConfigurationInfo | null | undefined;
  readonly configurations: UsbConfigurationInfo[];
  open(): Promise<void>;
  close(): Promise<void>;
  selectConfiguration(configurationValue: number): Promise<void>;
  claimInterface(interfaceNumber: number): Promise<void>;
  releaseInterface(interfaceNumber: number): Promise<void>;
  transferOut(endpointNumber: number, data: Uint8Array, timeoutMs?: number): Promise<{ bytesWritten: number; status: UsbTransferStatus }>;
  transferIn(endpointNumber: number, length: number, timeoutMs?: number): Promise<{ data?: DataView; status: UsbTransferStatus }>;
  /** Linux only: unbinds the kernel's printer driver (usblp) from the interface. */
  detachKernelDriver?(interfaceNumber: number): Promise<void>;
}

export interface UsbBackend {
  getDevices(): Promise<UsbPrinterDevice[]>;
}

/** The `usb` package's devices, loaded on first use so a station without USB printers never loads the native module. */
export async function loadUsbBackend(): Promise<UsbBackend> {
  const { usb } = await import('usb');
  return {
    getDevices: async () => (await usb.getDevices()) as unknown as UsbPrinterDevice[],
  };
}
