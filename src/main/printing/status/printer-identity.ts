// What a Zebra is: ~HI for model, firmware and resolution; SGD getvar for the resolution, the print
// width and the printer languages. ~HI must answer (no answer is a fault); a printer that answers
// ~HI but not SGD (old firmware) just leaves those facts unknown.
import { parseHostIdentification, type HostIdentification } from '../../../shared/zebra/identification';
import { getvarQuery, identificationQuery } from '../../../shared/zebra/queries';
import { ZebraReplyError } from '../../../shared/zebra/reply-error';
import { parseSgdReply } from '../../../shared/zebra/sgd';
import { PrinterTransportError, type StatusTransport } from '../transports/transport';

export interface PrinterIdentity {
  identification: HostIdentification;
  model: string;
  firmware: string;
  /** head.resolution.in_dpi, or the ~HI dots per millimetre when SGD does not say. */
  dpi: number;
  /** ezpl.print_width in dots; null when the printer did not say. */
  printWidthDots: number | null;
  /** device.languages split into words ("hybrid_xml_zpl" → ["hybrid", "xml", "zpl"]); null when unknown. */
  languages: string[] | null;
  /** The raw device.languages value. */
  languagesSetting: string | null;
  /** device.unique_id: the printer's serial number; null when it did not say. */
  serialNumber: string | null;
}

/** Enough to tell whether the printer at an address is still the one identified before. */
export interface PrinterFingerprint {
  serialNumber: string | null;
  dpi: number;
}

export const SGD = {
  resolution: 'head.resolution.in_dpi',
  printWidth: 'ezpl.print_width',
  languages: 'device.languages',
  serialNumber: 'device.unique_id',
} as const;

export interface IdentityReadOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
}

export async function readPrinterIdentity(transport: StatusTransport, options: IdentityReadOptions = {}): Promise<PrinterIdentity> {
  const limits = { ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}), ...(options.signal ? { signal: options.signal } : {}) };
  let identification: HostIdentification;
  try {
    identification = parseHostIdentification(await transport.query(identificationQuery, limits));
  } catch (error) {
    throw asTransportError(error);
  }
  let sgdAnswers = true;
  const getvar = async (name: string): Promise<string | null> => {
    if (!sgdAnswers) return null;
    try {
      return parseSgdReply(name, await transport.query(getvarQuery(name), limits));
    } catch (error) {
      // ~HI just answered: silence to SGD means firmware without it; do not wait for each variable.
      if (error instanceof PrinterTransportError && error.failure === 'no-answer') {
        sgdAnswers = false;
        return null;
      }
      if (error instanceof ZebraReplyError) return null;
      throw error;
    }
  };
  const resolution = wholeNumber(await getvar(SGD.resolution));
  const printWidthDots = wholeNumber(await getvar(SGD.printWidth));
  const languagesSetting = await getvar(SGD.languages);
  const serialNumber = serial(await getvar(SGD.serialNumber));
  return {
    identification,
    model: identification.model,
    firmware: identification.firmware,
    dpi: resolution ?? identification.dpi,
    printWidthDots,
    languages: languagesSetting === null ? null : languagesSetting.toLowerCase().split(/[^a-z0-9]+/).filter((word) => word.length > 0),
    languagesSetting,
    serialNumber,
  };
}

/**
 * The serial number and resolution only: two SGD questions, asked when a connection to the
 * printer is (re)established. A printer silent to SGD (old firmware) is asked ~HI for its
 * resolution and has no serial number.
 */
export async function readPrinterFingerprint(transport: StatusTransport, options: IdentityReadOptions = {}): Promise<PrinterFingerprint> {
  const limits = { ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}), ...(options.signal ? { signal: options.signal } : {}) };
  try {
    const serialNumber = serial(parseSgdReply(SGD.serialNumber, await transport.query(getvarQuery(SGD.serialNumber), limits)));
    const dpi = wholeNumber(parseSgdReply(SGD.resolution, await transport.query(getvarQuery(SGD.resolution), limits)));
    if (dpi !== null) return { serialNumber, dpi };
  } catch (error) {
    if (!(error instanceof ZebraReplyError) && !(error instanceof PrinterTransportError && error.failure === 'no-answer')) throw error;
  }
  const identity = await readPrinterIdentity(transport, options);
  return { serialNumber: identity.serialNumber, dpi: identity.dpi };
}

/** ezpl.print_width in dots; null when the printer does not say (or is silent to SGD). */
export async function readPrintWidth(transport: StatusTransport, options: IdentityReadOptions = {}): Promise<number | null> {
  const limits = { ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}), ...(options.signal ? { signal: options.signal } : {}) };
  try {
    return wholeNumber(parseSgdReply(SGD.printWidth, await transport.query(getvarQuery(SGD.printWidth), limits)));
  } catch (error) {
    if (error instanceof ZebraReplyError || (error instanceof PrinterTransportError && error.failure === 'no-answer')) return null;
    throw error;
  }
}

function serial(value: string | null): string | null {
  const text = value?.trim() ?? '';
  return text.length > 0 && text.length <= 64 && text !== '?' ? text : null;
}

function wholeNumber(value: string | null): number | null {
  if (value === null || !/^\d{1,5}$/.test(value)) return null;
  const number = Number.parseInt(value, 10);
  return number > 0 ? number : null;
}

function asTransportError(error: unknown): unknown {
  if (error instanceof ZebraReplyError) {
    return new PrinterTransportError('PRINTER_ERROR', error.message, { failure: 'bad-answer', delivery: 'none', details: [error.excerpt], cause: error });
  }
  return error;
}
