// The commands inside a format, in order, and which of them change the printer itself or persist
// settings (the configuration record). A Zebra runs a format's commands as it reads the format.
import { readZplCommands } from '../../shared/zebra/zpl-tokens';
import { objectName, type Download, type DownloadCode } from './download-commands';

export interface FormatCommand {
  /** "^" or "~". */
  prefix: string;
  /** Two letters, upper case: "FO", "JU", "DG". */
  code: string;
  /** Everything after the code up to the next command. */
  params: string;
  /** prefix + code + params, as received. */
  text: string;
}

/**
 * A format's text as bytes, one a character so positions stay the text's: a character beyond one
 * byte (field data in UTF-8) reads as `?`, which is never a prefix.
 */
export function textBytes(zpl: string): Uint8Array {
  const bytes = new Uint8Array(zpl.length);
  for (let index = 0; index < zpl.length; index += 1) {
    const code = zpl.charCodeAt(index);
    bytes[index] = code > 0xff ? 0x3f : code;
  }
  return bytes;
}

/** A format's commands, in order, read by ZPL's own rules (shared/zebra/zpl-tokens.ts). */
export function formatCommands(zpl: string): FormatCommand[] {
  return readZplCommands(textBytes(zpl)).map(({ name, start, paramsStart, end }) => ({
    prefix: name.slice(0, 1),
    code: name.slice(1),
    params: zpl.slice(paramsStart, end),
    text: zpl.slice(start, end),
  }));
}

/** Flash devices: anything written there survives power-off, so writing there changes the printer. */
const FLASH_DEVICES = new Set(['E', 'B']);
export const isFlashDevice = (device: string): boolean => FLASH_DEVICES.has(device.toUpperCase());

/**
 * Caret commands that change the printer itself or persist settings, wherever their parameters
 * point: ^JU (save, restore defaults), network settings, passwords, keyboard and serial settings.
 */
export const PRINTER_CHANGING_CARET_CODES: ReadonlySet<string> = new Set([
  'JU', // ^JUS save settings, ^JUF/^JUN/^JUA factory defaults, ^JUR restore saved
  'NB', // network boot / search for wired print server
  'NC', // primary network device
  'ND', // network settings of a print server
  'NI', // network id number
  'NN', // SNMP parameters
  'NP', // primary/secondary device
  'NS', // wired network settings
  'NT', // SMTP settings
  'NW', // web authentication timeout
  'KC', // client identifier
  'KL', // display language
  'KN', // printer name and description
  'KP', // front-panel password
  'SC', // serial communications
]);

/** Caret commands that write or delete an object on a device: recorded only when it is flash. */
export const OBJECT_CARET_CODES: ReadonlySet<string> = new Set(['ID', 'DF', 'IS']);

/** Tilde commands that change the printer itself: a reset. */
export const PRINTER_CHANGING_TILDE_CODES: ReadonlySet<string> = new Set([
  'JR', // power-on reset
  'WR', // reset the wireless card
]);

const DOWNLOAD_CODES: ReadonlySet<string> = new Set<DownloadCode>(['DG', 'DY', 'DB', 'DE', 'DS', 'DT', 'DU']);
// ~DY objects that change the printer, not the label: firmware and the certificate and credential files.
const PRINTER_FILE_EXTENSIONS: ReadonlySet<string> = new Set(['ZPL', 'NRD', 'PAC']);

/** Whether a download changes the printer: stored to flash, or firmware and certificates. */
export function downloadChangesPrinter(download: Pick<Download, 'code' | 'device' | 'name' | 'header'>): boolean {
  if (isFlashDevice(download.device)) return true;
  if (download.code !== 'DY') return false;
  const extension = download.name.includes('.') ? download.name.slice(download.name.lastIndexOf('.') + 1) : '';
  const extensionParam = (download.header.slice(3).split(',')[2] ?? '').trim().toUpperCase();
  return PRINTER_FILE_EXTENSIONS.has(extension) || PRINTER_FILE_EXTENSIONS.has(extensionParam);
}

/** A download written inside a format (its data is text there), read back from the command. */
export function downloadInFormat(command: FormatCommand): Download | null {
  if (command.prefix !== '~' || !DOWNLOAD_CODES.has(command.code)) return null;
  const code = command.code as DownloadCode;
  const params = command.params.split(',');
  const { device, name } = objectName(params[0] ?? '', code === 'DG' ? 'GRF' : '');
  const headerCommas = code === 'DG' ? 3 : code === 'DY' ? 5 : 2;
  const header = `~${code}${params.slice(0, headerCommas).join(',')},`;
  return { code, device, name, header, bytes: Buffer.from(command.text, 'latin1') };
}

/** The object a caret storage command names (^IDE:LOGO.GRF → E, LOGO.GRF); R: when none is given. */
export function objectOf(command: FormatCommand): { device: string; name: string } {
  return objectName(command.params.split(',')[0] ?? '', '');
}

/**
 * What the configuration record keeps of a format command, or null when the command is label
 * content. Downloads are shown by their header, not their data.
 */
export function configurationText(command: FormatCommand): string | null {
  if (command.prefix === '^') {
    if (PRINTER_CHANGING_CARET_CODES.has(command.code)) return command.text.trim();
    if (OBJECT_CARET_CODES.has(command.code) && isFlashDevice(objectOf(command).device)) return command.text.trim();
    return null;
  }
  if (PRINTER_CHANGING_TILDE_CODES.has(command.code)) return command.text.trim();
  const download = downloadInFormat(command);
  if (download && downloadChangesPrinter(download)) return download.header;
  return null;
}
