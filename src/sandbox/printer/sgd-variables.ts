// The Set-Get-Do variables the virtual Zebra knows. A Zebra answers "?" for any other name.
// Variables that stand for a setting a ZPL command also changes read and change that one setting:
// Zebra's SGD overview says the command type sent last decides, and both report it.
import type { MediaTracking, PrintMethod, PrinterSettingsValues } from './printer-memory';
import { formatUptime } from './printer-identity';
import { hostStatusSgdValue, type StatusSnapshot } from './status-replies';

/** Lengths of media the printer has moved, in dots of its own resolution. */
export interface MediaOdometers {
  /** Over the printer's life (odometer.total_print_length). */
  totalDots: number;
  /** Since the printhead was last cleaned (odometer.headclean; reset by a setvar of "0"). */
  headCleanDots: number;
  /** Since the printhead was replaced (odometer.headnew). */
  headNewDots: number;
}

export interface SgdContext {
  status: StatusSnapshot;
  model: string;
  firmware: string;
  dpi: number;
  printWidthDots: number;
  friendlyName: string;
  serial: string;
  /** Labels printed over the printer's life. */
  odometer: number;
  /** Milliseconds since the printer was last switched on. */
  uptimeMs: number;
  settings: PrinterSettingsValues;
  /** ^JZ: reprint after error. */
  reprintAfterError: boolean;
  media: MediaOdometers;
}

/** What a setvar of a setting variable changes. */
export interface SgdSettingTarget {
  setDarkness(value: number): void;
  setSpeed(ips: number): void;
  setPrintMethod(method: PrintMethod): void;
  setMediaTracking(tracking: MediaTracking): void;
  setLabelLength(dots: number): void;
  setReprintAfterError(value: boolean): void;
  resetHeadClean(): void;
  resetHeadNew(): void;
}

export const UNKNOWN_SGD_VALUE = '?';

const PRINT_METHOD_SGD: Record<PrintMethod, string> = { 'thermal transfer': 'thermal trans', 'direct thermal': 'direct thermal' };
const MEDIA_TYPE_SGD: Record<MediaTracking, string> = { gap: 'gap/notch', mark: 'mark', continuous: 'continuous' };

/** "1489 INCHES, 3784 CENTIMETERS", as the SGD reference shows the odometers. */
export function lengthReading(dots: number, dpi: number): string {
  const inches = Math.floor(dots / dpi);
  const centimetres = Math.floor((dots / dpi) * 2.54);
  return `${inches} INCHES, ${centimetres} CENTIMETERS`;
}

const readOnly: Record<string, (context: SgdContext) => string> = {
  'head.resolution.in_dpi': (c) => String(c.dpi),
  'device.product_name': (c) => c.model.replace(/-\d+dpi$/, ''),
  'appl.name': (c) => c.firmware,
  'media.status': (c) => (c.status.paperOut ? 'out' : 'ok'),
  'head.latch': (c) => (c.status.headOpen ? 'open' : 'ok'),
  'device.host_status': (c) => hostStatusSgdValue(c.status),
  'device.unique_id': (c) => c.serial,
  'device.uptime': (c) => formatUptime(c.uptimeMs),
  'odometer.total_label_count': (c) => String(c.odometer),
  'odometer.total_print_length': (c) => lengthReading(c.media.totalDots, c.dpi),
  'zpl.relative_darkness': (c) => String(c.settings.relativeDarkness),
};

interface SettingVariable {
  get(context: SgdContext): string;
  /** False when the value is not one the variable takes (the printer ignores it). */
  set(value: string, target: SgdSettingTarget): boolean;
}

const number = (value: string): number | null => {
  const parsed = Number.parseFloat(value);
  return Number.isFinite(parsed) ? parsed : null;
};

const settingVariables: Record<string, SettingVariable> = {
  'print.tone': {
    get: (c) => c.settings.darkness.toFixed(1),
    set: (value, target) => {
      const parsed = number(value);
      if (parsed === null) return false;
      target.setDarkness(parsed);
      return true;
    },
  },
  'media.speed': {
    get: (c) => c.settings.speedIps.toFixed(1),
    set: (value, target) => {
      const parsed = number(value);
      if (parsed === null) return false;
      target.setSpeed(parsed);
      return true;
    },
  },
  'ezpl.print_method': {
    get: (c) => PRINT_METHOD_SGD[c.settings.printMethod],
    set: (value, target) => {
      const method = (Object.keys(PRINT_METHOD_SGD) as PrintMethod[]).find((key) => PRINT_METHOD_SGD[key] === value.trim().toLowerCase());
      if (!method) return false;
      target.setPrintMethod(method);
      return true;
    },
  },
  'ezpl.media_type': {
    get: (c) => MEDIA_TYPE_SGD[c.settings.mediaTracking],
    set: (value, target) => {
      const tracking = (Object.keys(MEDIA_TYPE_SGD) as MediaTracking[]).find((key) => MEDIA_TYPE_SGD[key] === value.trim().toLowerCase());
      if (!tracking) return false;
      target.setMediaTracking(tracking);
      return true;
    },
  },
  'zpl.label_length': {
    get: (c) => String(c.settings.labelLengthDots),
    set: (value, target) => {
      const parsed = number(value);
      if (parsed === null || parsed < 1) return false;
      target.setLabelLength(parsed);
      return true;
    },
  },
  'ezpl.reprint_mode': {
    get: (c) => (c.reprintAfterError ? 'on' : 'off'),
    set: (value, target) => {
      const word = value.trim().toLowerCase();
      if (word !== 'on' && word !== 'off') return false;
      target.setReprintAfterError(word === 'on');
      return true;
    },
  },
  'odometer.headclean': {
    get: (c) => lengthReading(c.media.headCleanDots, c.dpi),
    set: (value, target) => {
      if (value.trim() !== '0') return false;
      target.resetHeadClean();
      return true;
    },
  },
  'odometer.headnew': {
    get: (c) => lengthReading(c.media.headNewDots, c.dpi),
    set: (value, target) => {
      if (value.trim() !== '0') return false;
      target.resetHeadNew();
      return true;
    },
  },
};

const writableDefaults: Record<string, (context: SgdContext) => string> = {
  'device.languages': () => 'zpl',
  'ezpl.print_width': (c) => String(c.printWidthDots),
  'device.friendly_name': (c) => c.friendlyName,
};

/** Variables, their current values and the values hosts have set with setvar. */
export class SgdVariables {
  private readonly overrides = new Map<string, string>();

  get(name: string, context: SgdContext): string {
    const key = name.toLowerCase();
    const fixed = readOnly[key];
    if (fixed) return fixed(context);
    const setting = settingVariables[key];
    if (setting) return setting.get(context);
    const override = this.overrides.get(key);
    if (override !== undefined) return override;
    const fallback = writableDefaults[key];
    return fallback ? fallback(context) : UNKNOWN_SGD_VALUE;
  }

  /** Another printer: none of the values set on the previous one. */
  clear(): void {
    this.overrides.clear();
  }

  /** Stores a setvar of a writable variable or changes the setting it stands for; anything else is ignored, as a Zebra does. */
  set(name: string, value: string, target: SgdSettingTarget): boolean {
    const key = name.toLowerCase();
    const setting = settingVariables[key];
    if (setting) return setting.set(value, target);
    if (!(key in writableDefaults)) return false;
    this.overrides.set(key, value);
    return true;
  }
}
