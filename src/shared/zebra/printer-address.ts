// Where a printer is and how the station reaches it: the part of a printer's settings row that the
// transports need. Shared so the screen validates what the user types with the same rules.
import { z } from 'zod';

const hostname = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;
const ipv4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const ipv6 = /^[0-9a-f:]*:[0-9a-f:.]*$/i;

export const PrinterHostSchema = z
  .string()
  .trim()
  .min(1, 'Enter the printer’s IP address or host name')
  .refine((host) => ipv4.test(host) || (ipv6.test(host) && host.length <= 45) || hostname.test(host), {
    message: 'Not an IP address or host name',
  });

/** A CUPS queue or a Windows printer name as the OS lists it. */
export const OsQueueNameSchema = z
  .string()
  .min(1, 'Choose a print queue')
  .max(255)
  // A leading dash would read as an option to lp; control characters have no place in a name.
  .refine((name) => !name.startsWith('-') && ![...name].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f), {
    message: 'Not a print queue name',
  });

export const ZEBRA_USB_VENDOR_ID = 0x0a5f;

export const PrinterAddressSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('network-zebra'),
    host: PrinterHostSchema,
    port: z.number().int().min(1).max(65_535).default(9100),
  }),
  /** ZPL through the OS queue: CUPS `lp -o raw` on Linux and macOS, the spooler's RAW datatype on Windows. */
  z.strictObject({ kind: z.literal('os-queue-raw'), queue: OsQueueNameSchema }),
  /** PDF labels through the OS queue and the printer's own driver. */
  z.strictObject({ kind: z.literal('os-queue-pdf'), queue: OsQueueNameSchema }),
  z.strictObject({
    kind: z.literal('usb-zebra'),
    /** Picks one printer when several Zebras are plugged in; without it the first one found is used. */
    serialNumber: z.string().min(1).max(128).optional(),
    productId: z.number().int().min(0).max(0xffff).optional(),
    /** The OS queue of the same printer, used when the station cannot claim the USB device. */
    fallbackQueue: OsQueueNameSchema.optional(),
  }),
]);

export type PrinterAddress = z.infer<typeof PrinterAddressSchema>;
export type PrinterAddressInput = z.input<typeof PrinterAddressSchema>;
export type PrinterAddressKind = PrinterAddress['kind'];

/** One key per route, so two settings rows for the same printer share one connection and one lock. */
export function printerAddressKey(address: PrinterAddress): string {
  switch (address.kind) {
    case 'network-zebra':
      return `tcp:${address.host.toLowerCase()}:${address.port}`;
    case 'os-queue-raw':
      return `queue-raw:${address.queue}`;
    case 'os-queue-pdf':
      return `queue-pdf:${address.queue}`;
    case 'usb-zebra':
      return `usb:${address.productId ?? '*'}:${address.serialNumber ?? '*'}`;
  }
}

/** "Zebra at 10.0.0.5:9100", "print queue Zebra_ZD421", "USB Zebra 12345": for messages. */
export function describePrinterAddress(address: PrinterAddress): string {
  switch (address.kind) {
    case 'network-zebra':
      return `the printer at ${address.host}:${address.port}`;
    case 'os-queue-raw':
    case 'os-queue-pdf':
      return `print queue "${address.queue}"`;
    case 'usb-zebra':
      return address.serialNumber ? `the USB Zebra ${address.serialNumber}` : 'the USB Zebra';
  }
}
