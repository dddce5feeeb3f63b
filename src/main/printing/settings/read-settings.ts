/**
 * A printer's settings as it reports them: SGD getvar for each (Zebra's SGD command reference), and
 * the configuration (^HH) for what SGD leaves unknown ("?"), read once. Also the roll against the
 * A6 label and printhead care, from the same answers.
 */
import { headCare, headFaultsOf, rollFit } from '../../../shared/zebra/roll-and-head';
import type { PrinterSettingsData } from '../../../shared/contract/printers';
import { parseExtendedStatus } from '../../../shared/zebra/extended-status';
import { parseHostStatus } from '../../../shared/zebra/host-status';
import { parseHostIdentification } from '../../../shared/zebra/identification';
import {
  parseConfiguration,
  parseInches,
  parseMediaType,
  parseReprintSetting,
  parseSettingNumber,
  parseTracking,
  settingVariables,
  type ConfigurationReport,
} from '../../../shared/zebra/printer-settings';
import { configurationQuery, extendedStatusQuery, getvarQuery, hostStatusQuery, identificationQuery, printheadLifeQuery } from '../../../shared/zebra/queries';
import { ZebraReplyError } from '../../../shared/zebra/reply-error';
import { parseSgdReply } from '../../../shared/zebra/sgd';
import { PrinterTransportError, type StatusTransport } from '../transports/transport';
import { SGD } from '../status/printer-identity';

type SettingsRead = Omit<PrinterSettingsData, 'printerId'>;

export interface ReadSettingsOptions {
  timeoutMs?: number;
  now?: () => Date;
}

/** Reads every setting; a printer that does not answer at all is PRINTER_OFFLINE (thrown). */
export async function readPrinterSettings(transport: StatusTransport, options: ReadSettingsOptions = {}): Promise<SettingsRead> {
  const limits = options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {};
  // ~HS first: no answer means the printer cannot be asked now, and nothing else is tried.
  const host = parseHostStatus(await transport.query(hostStatusQuery, limits));
  let sgdAnswers = true;
  const getvar = async (name: string): Promise<string | null> => {
    if (!sgdAnswers) return null;
    try {
      return parseSgdReply(name, await transport.query(getvarQuery(name), limits));
    } catch (error) {
      // Silence to SGD: firmware without it; do not wait for each variable. A broken connection is thrown.
      if (error instanceof PrinterTransportError && error.failure !== 'no-answer') throw error;
      if (error instanceof PrinterTransportError) sgdAnswers = false;
      return null;
    }
  };
  const sgd = {
    darkness: parseSettingNumber(await getvar(settingVariables.darkness)),
    speedIps: parseSettingNumber(await getvar(settingVariables.speed)),
    mediaType: parseMediaType(await getvar(settingVariables.mediaType)),
    tracking: parseTracking(await getvar(settingVariables.tracking)),
    printWidthDots: parseSettingNumber(await getvar(settingVariables.printWidth)),
    labelLengthDots: parseSettingNumber(await getvar(settingVariables.labelLength)),
    reprintAfterError: parseReprintSetting(await getvar(settingVariables.reprint)),
    labelCount: parseSettingNumber(await getvar(settingVariables.labelCount)),
    dpi: parseSettingNumber(await getvar(SGD.resolution)),
    headCleanInches: parseInches(await getvar(settingVariables.headClean)),
    headNewInches: parseInches(await getvar(settingVariables.headNew)),
  };
  const needsConfiguration =
    [sgd.darkness, sgd.speedIps, sgd.mediaType, sgd.tracking, sgd.printWidthDots, sgd.labelLengthDots].some((value) => value === null) || sgd.reprintAfterError === 'unknown';
  const configuration = needsConfiguration ? await readConfiguration(transport, limits) : null;
  const fromConfiguration: string[] = [];
  /** The SGD value, else the configuration's (noted), else null. */
  function either<T>(name: string, fromSgd: T | null, fromConfig: T | null | undefined): T | null {
    if (fromSgd !== null) return fromSgd;
    if (fromConfig === null || fromConfig === undefined) return null;
    fromConfiguration.push(name);
    return fromConfig;
  }
  const darkness = either('darkness', sgd.darkness, configuration?.darkness);
  const speedIps = either('speedIps', sgd.speedIps, configuration?.speed);
  const mediaType = either('mediaType', sgd.mediaType, configuration?.mediaType);
  const tracking = either('tracking', sgd.tracking, configuration?.tracking);
  const printWidthDots = either('printWidthDots', sgd.printWidthDots, configuration?.printWidthDots);
  // The label length ~HS reports (dddd) when neither SGD nor the configuration says.
  const labelLengthDots = either('labelLengthDots', sgd.labelLengthDots, configuration?.labelLengthDots) ?? host.labelLengthDots;
  const reprintAfterError = either('reprintAfterError', sgd.reprintAfterError === 'unknown' ? null : sgd.reprintAfterError, configuration?.reprint === 'unknown' ? null : configuration?.reprint) ?? 'unknown';
  const head = await readHeadCare(transport, limits, sgd.headCleanInches ?? configuration?.headCleanInches ?? null, sgd.headNewInches, host);
  const dpi = sgd.dpi !== null ? Math.round(sgd.dpi) : await readIdentifiedDpi(transport, limits);
  return {
    darkness,
    speedIps,
    mediaType,
    tracking,
    printWidthDots: printWidthDots === null ? null : Math.round(printWidthDots),
    labelLengthDots: labelLengthDots === null ? null : Math.round(labelLengthDots),
    dpi,
    reprintAfterError,
    labelCount: sgd.labelCount === null ? null : Math.round(sgd.labelCount),
    fromConfiguration,
    roll: rollFit(dpi, printWidthDots === null ? null : Math.round(printWidthDots), labelLengthDots === null ? null : Math.round(labelLengthDots)),
    head,
    readAt: (options.now ?? (() => new Date()))().toISOString(),
  };
}

/** The resolution ~HI gives in dots per millimetre, for firmware that does not say it over SGD; null when it does not answer. */
async function readIdentifiedDpi(transport: StatusTransport, limits: { timeoutMs?: number }): Promise<number | null> {
  try {
    return parseHostIdentification(await transport.query(identificationQuery, limits)).dpi;
  } catch (error) {
    if (error instanceof PrinterTransportError || error instanceof ZebraReplyError) return null;
    throw error;
  }
}

/** ^HH, once; a printer that does not answer it leaves those settings unknown. */
async function readConfiguration(transport: StatusTransport, limits: { timeoutMs?: number }): Promise<ConfigurationReport | null> {
  try {
    return parseConfiguration(await transport.query(configurationQuery, limits));
  } catch (error) {
    if (error instanceof PrinterTransportError) return null;
    throw error;
  }
}

/**
 * Printhead care: the lengths since the head was cleaned and since it was new (SGD, else ~HQPH),
 * the printer's own clean and replace warnings and its head faults (~HQES, ~HS k/l).
 */
async function readHeadCare(
  transport: StatusTransport,
  limits: { timeoutMs?: number },
  sinceCleaned: number | null,
  headNew: number | null,
  host: ReturnType<typeof parseHostStatus>,
): Promise<SettingsRead['head']> {
  let cleanedInches = sinceCleaned;
  let headInches = headNew;
  if (cleanedInches === null || headInches === null) {
    try {
      const life = await transport.query(printheadLifeQuery, limits);
      cleanedInches ??= parseInches(/LAST CLEANED:[^\r\n]*/.exec(life)?.[0]);
      headInches ??= parseInches(/\n\s*1:[^\r\n]*/.exec(life)?.[0]);
    } catch (error) {
      if (!(error instanceof PrinterTransportError)) throw error;
    }
  }
  let faults = headFaultsOf(host, null);
  let cleanWarning = false;
  let replaceWarning = false;
  try {
    const extended = parseExtendedStatus(await transport.query(extendedStatusQuery, limits));
    faults = headFaultsOf(host, extended);
    cleanWarning = extended.warnings.flags.includes('clean-printhead');
    replaceWarning = extended.warnings.flags.includes('replace-printhead');
  } catch (error) {
    if (!(error instanceof PrinterTransportError)) throw error;
  }
  return headCare({ sinceCleanedInches: cleanedInches, headInches, cleanWarning, replaceWarning, faults });
}
