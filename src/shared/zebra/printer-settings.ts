// The settings a bench admin reads and changes on purpose, as a Zebra reports them over SGD and in
// its configuration (^HH), and the exact commands that change each one. Pure: no I/O.
// docs/printing.md, "Printer settings", cites Zebra's documentation for each.

/** ^JZ, SGD ezpl.reprint_mode, the configuration's REPRINT MODE: whether a label cut short by a fault prints again. */
export type ReprintSetting = 'on' | 'off' | 'unknown';
export type MediaType = 'direct' | 'transfer';
export type MediaTracking = 'gap' | 'mark' | 'continuous';

/** SGD names read for each setting (Zebra's SGD command reference). */
export const settingVariables = {
  darkness: 'print.tone',
  speed: 'media.speed',
  mediaType: 'ezpl.print_method',
  tracking: 'ezpl.media_type',
  printWidth: 'ezpl.print_width',
  labelLength: 'zpl.label_length',
  reprint: 'ezpl.reprint_mode',
  labelCount: 'odometer.total_label_count',
  headClean: 'odometer.headclean',
  headNew: 'odometer.headnew',
  totalLength: 'odometer.total_print_length',
} as const;

const number = (value: string | null | undefined): number | null => {
  if (value === null || value === undefined) return null;
  const match = /^\s*([+-]?\d+(?:\.\d+)?)/.exec(value);
  return match ? Number.parseFloat(match[1] as string) : null;
};

/** "on" / "off" from ezpl.reprint_mode; "ENABLED" / "DISABLED" from the configuration's REPRINT MODE. */
export function parseReprintSetting(value: string | null | undefined): ReprintSetting {
  const word = value?.trim().toLowerCase();
  if (word === 'on' || word === 'enabled') return 'on';
  if (word === 'off' || word === 'disabled') return 'off';
  return 'unknown';
}

/** "thermal trans" / "direct thermal" (SGD), "THERMAL-TRANS." / "DIRECT-THERMAL" (configuration). */
export function parseMediaType(value: string | null | undefined): MediaType | null {
  const word = value?.trim().toLowerCase() ?? '';
  if (word.startsWith('direct')) return 'direct';
  if (word.startsWith('thermal')) return 'transfer';
  return null;
}

/** "gap/notch" / "mark" / "continuous" (SGD ezpl.media_type); the configuration's MEDIA TYPE and SENSOR TYPE. */
export function parseTracking(value: string | null | undefined): MediaTracking | null {
  const word = value?.trim().toLowerCase() ?? '';
  if (word.startsWith('gap') || word === 'web' || word === 'non-continuous') return 'gap';
  if (word.startsWith('mark')) return 'mark';
  if (word.startsWith('continuous') || word.startsWith('variable')) return 'continuous';
  return null;
}

export const parseSettingNumber = number;

/** Inches from an odometer reading ("1489 INCHES, 3784 CENTIMETERS", or ~HQ's `1489 "`). */
export function parseInches(value: string | null | undefined): number | null {
  if (!value) return null;
  const inches = /(\d+)\s*(?:INCHES|IN\b|")/i.exec(value);
  if (inches) return Number.parseInt(inches[1] as string, 10);
  const centimetres = /(\d+)\s*(?:CENTIMETERS|CM\b)/i.exec(value);
  return centimetres ? Math.floor(Number.parseInt(centimetres[1] as string, 10) / 2.54) : null;
}

/** The configuration lines ^HH returns: each value first, its name after, e.g. "22.0            DARKNESS". */
export interface ConfigurationReport {
  darkness: number | null;
  speed: number | null;
  mediaType: MediaType | null;
  tracking: MediaTracking | null;
  printWidthDots: number | null;
  labelLengthDots: number | null;
  reprint: ReprintSetting;
  /** Inches since the printhead was last cleaned (LAST CLEANED), when the configuration lists it. */
  headCleanInches: number | null;
}

/** Reads ^HH's answer line by line; a name the printer does not list stays unknown. */
export function parseConfiguration(text: string): ConfigurationReport {
  const lines = new Map<string, string>();
  const STX = String.fromCharCode(2);
  const ETX = String.fromCharCode(3);
  for (const raw of text.split(STX).join('').split(ETX).join('').split(/\r?\n/)) {
    const line = raw.trim();
    const match = /^(\S+(?:\s\S+)*?)\s{2,}([A-Z][A-Z .\-/_]*)$/.exec(line) ?? /^(\S+)\s+([A-Z][A-Z .\-/_]*)$/.exec(line);
    if (match) lines.set((match[2] as string).trim(), (match[1] as string).trim());
  }
  const value = (name: string): string | null => lines.get(name) ?? null;
  return {
    darkness: number(value('DARKNESS')),
    speed: number(value('PRINT SPEED')),
    mediaType: parseMediaType(value('PRINT METHOD')),
    tracking: value('SENSOR TYPE')?.toUpperCase() === 'MARK' ? 'mark' : parseTracking(value('MEDIA TYPE')),
    printWidthDots: number(value('PRINT WIDTH')),
    labelLengthDots: number(value('LABEL LENGTH')),
    reprint: parseReprintSetting(value('REPRINT MODE')),
    headCleanInches: parseInches(value('LAST CLEANED')),
  };
}

/** Darkness 0–30 (~SD), print speed 1–14 inches a second (^PR). */
export const darknessRange = { min: 0, max: 30 } as const;
export const speedRange = { min: 1, max: 14 } as const;

/** A change the admin asked for: only what is named. */
export interface SettingsChange {
  darkness?: number;
  speed?: number;
  mediaType?: MediaType;
  tracking?: MediaTracking;
  reprintAfterError?: boolean;
}

const TRACKING_LETTER: Record<MediaTracking, string> = { gap: 'Y', mark: 'M', continuous: 'N' };

/**
 * The printer's own commands for each setting named, in a fixed order: ~SD (darkness, a control
 * command), then one format with ^PR, ^MT, ^MN and ^JZ. `save` adds ^JUS in a format of its own,
 * after them, so the printer powers on with them.
 */
export function settingsCommands(change: SettingsChange, save: boolean): { setting: keyof SettingsChange | 'save'; bytes: string }[] {
  const commands: { setting: keyof SettingsChange | 'save'; bytes: string }[] = [];
  if (change.darkness !== undefined) commands.push({ setting: 'darkness', bytes: `~SD${String(Math.round(change.darkness)).padStart(2, '0')}` });
  if (change.speed !== undefined) commands.push({ setting: 'speed', bytes: `^XA^PR${Math.round(change.speed)}^XZ` });
  if (change.mediaType !== undefined) commands.push({ setting: 'mediaType', bytes: `^XA^MT${change.mediaType === 'direct' ? 'D' : 'T'}^XZ` });
  if (change.tracking !== undefined) commands.push({ setting: 'tracking', bytes: `^XA^MN${TRACKING_LETTER[change.tracking]}^XZ` });
  if (change.reprintAfterError !== undefined) commands.push({ setting: 'reprintAfterError', bytes: `^XA^JZ${change.reprintAfterError ? 'Y' : 'N'}^XZ` });
  if (save) commands.push({ setting: 'save', bytes: '^XA^JUS^XZ' });
  return commands;
}

/** setvar "odometer.headclean" "0": the printhead was cleaned (SGD command reference). */
export const headCleanedCommand = '! U1 setvar "odometer.headclean" "0"\r\n';
/** ~JC: calibrate the media sensors and measure the label length. */
export const calibrateCommand = '~JC';
/** ~WC: print the configuration label. */
export const configurationLabelCommand = '~WC';
/** ^HH in a format of its own: the configuration's text, answered on the connection. */
export const configurationReturnCommand = '^XA^HH^XZ';
