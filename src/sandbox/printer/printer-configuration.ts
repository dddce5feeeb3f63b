// What the printer does with the commands that act on the printer rather than on a label: it
// stores and deletes objects, changes, saves and restores its settings, and keeps the record of
// every command that changed the printer itself or persisted settings.
import type { Download } from './download-commands';
import { objectName } from './download-commands';
import {
  configurationText,
  downloadChangesPrinter,
  downloadInFormat,
  formatCommands,
  objectOf,
  PRINTER_CHANGING_TILDE_CODES,
} from './format-commands';
import { ObjectMemory, SettingsMemory, type MediaTracking, type PrintMethod, type PrinterSettingsValues } from './printer-memory';
import type { ConfigurationCommand } from './virtual-zebra-types';

const RECORD_LIMIT = 10_000;
const MAX_DARKNESS = 30;
/** A ZD421's print speeds: 2 to 6 inches a second; a higher ^PR prints at 6, as the guide says of a printer's limit. */
export const SPEED_RANGE_IPS = { min: 2, max: 6 } as const;
// ^PR's letters stand for speeds (ZPL II Programming Guide, ^PR).
const SPEED_LETTERS: Record<string, number> = { A: 2, B: 3, C: 4, D: 6, E: 8 };
const MEDIA_TRACKING: Record<string, MediaTracking> = { N: 'continuous', V: 'continuous', Y: 'gap', W: 'gap', M: 'mark' };

/** What a format asked of the printer beyond its settings, in order: the virtual printer carries these out. */
export type FormatAction = 'reset' | 'calibrate' | 'configuration-label' | 'configuration-return';

const clamp = (value: number, min: number, max: number): number => Math.max(min, Math.min(max, value));

export class PrinterConfiguration {
  private readonly objects = new ObjectMemory();
  private readonly settings: SettingsMemory;
  private record: ConfigurationCommand[] = [];

  constructor(
    private readonly now: () => number,
    factory: PrinterSettingsValues,
  ) {
    this.settings = new SettingsMemory(factory);
  }

  /** Settings in force now (a printed ^LL changes the label length). */
  get current(): PrinterSettingsValues {
    return this.settings.current;
  }

  /** The record, oldest first (the last 10 000 commands). */
  commands(): ConfigurationCommand[] {
    return this.record.map((entry) => ({ ...entry }));
  }

  storedObjects(): string[] {
    return this.objects.names();
  }

  recordCommand(command: string): void {
    this.record.push({ command, at: this.now() });
    if (this.record.length > RECORD_LIMIT) this.record.shift();
  }

  download(download: Download): void {
    if (downloadChangesPrinter(download)) this.recordCommand(download.header);
    this.objects.store(download);
  }

  setDarkness(value: number): void {
    this.settings.current.darkness = clamp(value, 0, MAX_DARKNESS);
  }

  /** ^MD: darkness relative to the ~SD value, kept apart so each ^MD counts from that value, as the guide's examples do. */
  setRelativeDarkness(value: number): void {
    this.settings.current.relativeDarkness = clamp(value, -MAX_DARKNESS, MAX_DARKNESS);
  }

  /** ^PR, media.speed: what the printer cannot do it does at its nearest speed. */
  setSpeed(ips: number): void {
    this.settings.current.speedIps = clamp(Math.round(ips), SPEED_RANGE_IPS.min, SPEED_RANGE_IPS.max);
  }

  setPrintMethod(method: PrintMethod): void {
    this.settings.current.printMethod = method;
  }

  setMediaTracking(tracking: MediaTracking): void {
    this.settings.current.mediaTracking = tracking;
  }

  setLabelLength(dots: number): void {
    this.settings.current.labelLengthDots = clamp(Math.round(dots), 1, 32_000);
  }

  /** The settings the printer powers on with (saved with ^JUS). */
  saved(): PrinterSettingsValues {
    return this.settings.savedValues();
  }

  /** A tilde command read outside a format that is neither a query nor a download; the action it asks for, if any. */
  tilde(code: string): FormatAction | null {
    if (PRINTER_CHANGING_TILDE_CODES.has(code)) this.recordCommand(`~${code}`);
    return tildeAction(code);
  }

  /**
   * Runs the commands of a format that act on the printer, in order, as a Zebra does while it
   * reads the format; returns the downloads the format recalls (^XG, ^IM), for rendering, and
   * what else it asked of the printer (a reset, a calibration, the configuration label or its text).
   */
  runFormat(zpl: string): { recalled: string; actions: FormatAction[] } {
    let recalled = '';
    const actions: FormatAction[] = [];
    for (const command of formatCommands(zpl)) {
      const configuration = configurationText(command);
      if (configuration !== null) this.recordCommand(configuration);
      if (command.prefix === '~') {
        if (command.code === 'SD' && /^\d{1,2}/.test(command.params)) this.setDarkness(Number.parseInt(command.params, 10));
        const download = downloadInFormat(command);
        if (download) this.objects.store(download);
        const action = tildeAction(command.code);
        if (action) actions.push(action);
        continue;
      }
      switch (command.code) {
        case 'JU':
          this.runSettingsCommand(command.params.trim().charAt(0).toUpperCase());
          break;
        case 'MD': {
          const value = Number.parseFloat(command.params);
          if (Number.isFinite(value)) this.setRelativeDarkness(value);
          break;
        }
        case 'PR': {
          const first = (command.params.split(',')[0] ?? '').trim().toUpperCase();
          const ips = SPEED_LETTERS[first] ?? Number.parseInt(first, 10);
          if (Number.isFinite(ips)) this.setSpeed(ips);
          break;
        }
        case 'MT': {
          const kind = command.params.trim().charAt(0).toUpperCase();
          if (kind === 'T') this.setPrintMethod('thermal transfer');
          if (kind === 'D') this.setPrintMethod('direct thermal');
          break;
        }
        case 'MN': {
          const tracking = MEDIA_TRACKING[command.params.trim().charAt(0).toUpperCase()];
          if (tracking) this.setMediaTracking(tracking);
          break;
        }
        case 'HH':
          actions.push('configuration-return');
          break;
        case 'ID': {
          const { device, name } = objectOf(command);
          this.objects.delete(device, name);
          break;
        }
        case 'XG':
        case 'IM': {
          const { device, name } = objectName(command.params.split(',')[0] ?? '', 'GRF');
          const stored = this.objects.get(device, name);
          if (stored) recalled += stored.bytes.toString('latin1');
          break;
        }
      }
    }
    return { recalled, actions };
  }

  /** Power-on: the saved settings, and RAM is empty. */
  powerOn(): void {
    this.settings.revert();
    this.objects.loseVolatile();
  }

  /** Another printer: its factory settings, nothing in its memory. The record is the bench's and stays. */
  replace(factory: PrinterSettingsValues): void {
    this.objects.clear();
    this.settings.replace(factory);
  }

  private runSettingsCommand(which: string): void {
    if (which === 'S') this.settings.save();
    else if (which === 'R') this.settings.revert();
    else if (which === 'F' || which === 'N' || which === 'A') this.settings.restoreFactory();
  }
}

/** ~JR resets the printer, ~JC calibrates the media sensors, ~WC prints the configuration label. */
function tildeAction(code: string): FormatAction | null {
  switch (code) {
    case 'JR':
      return 'reset';
    case 'JC':
      return 'calibrate';
    case 'WC':
      return 'configuration-label';
    default:
      return null;
  }
}
