import type { TFunction } from 'i18next';
import type { PrinterAddress } from '../../../../shared/zebra/printer-address';

/**
 * Where a printer is, in the reader's language ("de printer op 10.0.0.5:9100"), from its address:
 * the contract's `description` is English for the log and the command line.
 */
export function printerAddressWords(address: PrinterAddress, t: TFunction): string {
  switch (address.kind) {
    case 'network-zebra':
      return t('printers.addressWords.networkZebra', { host: address.host, port: address.port });
    case 'os-queue-raw':
    case 'os-queue-pdf':
      return t('printers.addressWords.queue', { queue: address.queue });
    case 'usb-zebra':
      return address.serialNumber ? t('printers.addressWords.usb', { serial: address.serialNumber }) : t('printers.addressWords.usbAny');
  }
}
