// The check run when a printer is added or tested: is it a ZPL printer, and is its head wide
// enough for an A6 label? The service's ZPL is A6 at 203 dpi (^PW839, 105 mm). A 4-inch Zebra
// prints 832 dots at 203 dpi (104 mm): the last 7 dots (0.9 mm) at the label's right edge fall in
// the label's blank margin, so 104 mm "fits" at any resolution. A narrower head is refused (see
// label-route.ts); another resolution is no longer a problem: such a printer gets the order's PDF
// rasterised at its own resolution. Warnings are plain sentences.
import type { ErrorFacts } from '../../shared/errors';
import { readPrinterIdentity, type PrinterIdentity } from './status/printer-identity';
import { readPrinterStatus, type PrinterStatusReport } from './status/printer-status';
import { parseSettingNumber, settingVariables } from '../../shared/zebra/printer-settings';
import { getvarQuery } from '../../shared/zebra/queries';
import { ZebraReplyError } from '../../shared/zebra/reply-error';
import { rollFit, rollSentences } from '../../shared/zebra/roll-and-head';
import { parseSgdReply } from '../../shared/zebra/sgd';
import { canQuery, PrinterTransportError, type PrinterTransport, type StatusTransport } from './transports/transport';
import { A6_WIDTH_MM, LABEL_DPI, MIN_PRINT_WIDTH_DOTS } from './label-route';

export type PrinterCheckIssue = 'not-zpl' | 'print-width' | 'print-width-unknown' | 'not-checkable' | 'roll-too-short';

export interface PrinterCheckWarning {
  issue: PrinterCheckIssue;
  /** English, for logs and the CLI; the screen words the issue and its facts. */
  message: string;
  facts?: ErrorFacts;
}

export interface PrinterCheckResult {
  /** False when the printer cannot be asked (an OS queue or a PDF printer). */
  checked: boolean;
  /** Checked and nothing to warn about. */
  passed: boolean;
  identity: PrinterIdentity | null;
  /** Status at the time of the check (faults such as paper out are reported here, not as warnings). */
  status: PrinterStatusReport | null;
  warnings: PrinterCheckWarning[];
}

export interface CheckOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** The warnings for what a printer says about itself. */
export function evaluatePrinterIdentity(identity: Pick<PrinterIdentity, 'dpi' | 'printWidthDots' | 'languages' | 'languagesSetting'>): PrinterCheckWarning[] {
  const warnings: PrinterCheckWarning[] = [];
  // A printer that answered ~HI (a ZPL command) reads ZPL; only a stated language list can say otherwise.
  if (identity.languages !== null && !identity.languages.includes('zpl')) {
    warnings.push({
      issue: 'not-zpl',
      message: `The printer is set to the "${identity.languagesSetting ?? ''}" printer language, not ZPL. Switch it to ZPL (or choose another printer): it would not print the labels.`,
      facts: { language: identity.languagesSetting ?? '' },
    });
  }
  if (identity.printWidthDots === null) {
    warnings.push({
      issue: 'print-width-unknown',
      message: 'The printer did not say its print width. Make sure it is a 4-inch printer, or the right edge of A6 labels will be cut off.',
    });
  } else {
    const widthMm = (identity.printWidthDots / identity.dpi) * 25.4;
    const at203 = Math.round((identity.printWidthDots * LABEL_DPI) / identity.dpi);
    if (at203 < MIN_PRINT_WIDTH_DOTS) {
      const lostMm = Math.max(1, Math.round(A6_WIDTH_MM - widthMm));
      warnings.push({
        issue: 'print-width',
        message: `The printer prints ${identity.printWidthDots} dots (${Math.round(widthMm)} mm) wide. A6 labels are ${A6_WIDTH_MM} mm wide, so about ${lostMm} mm at the right edge would be cut off: labels are refused on it. Set the print width to its maximum, or use a 4-inch printer.`,
        facts: { dots: identity.printWidthDots, mm: Math.round(widthMm), lostMm, labelMm: A6_WIDTH_MM },
      });
    }
  }
  return warnings;
}

/** Asks the printer what it is and how it is, and says what would go wrong with A6 labels. */
export async function checkPrinter(transport: PrinterTransport, options: CheckOptions = {}): Promise<PrinterCheckResult> {
  if (transport.format === 'pdf') {
    return {
      checked: false,
      passed: false,
      identity: null,
      status: null,
      warnings: [
        {
          issue: 'not-checkable',
          message: 'PDF labels go through the printer’s own driver. Set its paper size to A6 (105 × 148 mm) in the printer settings.',
          facts: { subject: 'pdf' },
        },
      ],
    };
  }
  if (!canQuery(transport)) {
    return {
      checked: false,
      passed: false,
      identity: null,
      status: null,
      warnings: [
        {
          issue: 'not-checkable',
          message: 'A printer behind an OS print queue cannot be asked what it is, so it gets the service’s 203 dpi ZPL as it is. Make sure it is a 203 dpi ZPL printer (a Zebra) with a 4-inch printhead.',
          facts: { subject: 'queue' },
        },
      ],
    };
  }
  const identity = await readPrinterIdentity(transport, options);
  const status = await readPrinterStatus(transport, options);
  const warnings = [...evaluatePrinterIdentity(identity), ...rollWarnings(identity, (await readLabelLength(transport, options)) ?? status.host?.labelLengthDots ?? null)];
  return { checked: true, passed: warnings.length === 0, identity, status, warnings };
}

/**
 * Labels on the roll shorter than the A6 label (roll-and-head.ts): each label would run over two.
 * A print width too narrow is the print-width warning already.
 */
export function rollWarnings(identity: Pick<PrinterIdentity, 'dpi' | 'printWidthDots'>, labelLengthDots: number | null): PrinterCheckWarning[] {
  const fit = rollFit(identity.dpi, identity.printWidthDots, labelLengthDots);
  return fit.issues
    .filter((issue) => issue.issue === 'too-short')
    .map((issue) => ({
      issue: 'roll-too-short' as const,
      message: `${rollSentences({ ...fit, issues: [issue] }).join(' ')} Load A6 labels (105 × 148 mm) and calibrate the printer.`,
      facts: { printerMm: Math.round(issue.printerMm), labelMm: Math.round(issue.labelMm) },
    }));
}

/** zpl.label_length: the length of the labels the printer measured or was last told (^LL); null when it does not say. */
async function readLabelLength(transport: StatusTransport, options: CheckOptions): Promise<number | null> {
  try {
    const value = parseSettingNumber(parseSgdReply(settingVariables.labelLength, await transport.query(getvarQuery(settingVariables.labelLength), options)));
    return value === null ? null : Math.round(value);
  } catch (error) {
    if (error instanceof ZebraReplyError || (error instanceof PrinterTransportError && error.failure === 'no-answer')) return null;
    throw error;
  }
}
