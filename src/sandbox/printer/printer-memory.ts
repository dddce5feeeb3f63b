// What a Zebra remembers: objects downloaded to its storage devices (R: is RAM, lost at power-off;
// E: and B: are flash) and its settings, current ones and the ones saved with ^JUS that it powers
// on with.
import type { Download } from './download-commands';

/** ^MT / SGD ezpl.print_method: with a ribbon, or on heat-sensitive labels. */
export type PrintMethod = 'thermal transfer' | 'direct thermal';
/** ^MN / SGD ezpl.media_type: how the printer finds the top of each label. */
export type MediaTracking = 'gap' | 'mark' | 'continuous';

/** Settings a label or a host may change until power-off; ^JUS saves them. */
export interface PrinterSettingsValues {
  /** Darkness 0–30 (~SD, SGD print.tone). */
  darkness: number;
  /** ^MD: added to the darkness, -30–30; 0 at power-up unless saved. */
  relativeDarkness: number;
  /** Label length in dots (the last ^LL printed, or what ~JC measured); ~HS and zpl.label_length report it. */
  labelLengthDots: number;
  /** Print speed in inches per second (^PR, SGD media.speed). */
  speedIps: number;
  printMethod: PrintMethod;
  mediaTracking: MediaTracking;
}

const VOLATILE_DEVICE = 'R';

export class ObjectMemory {
  private readonly objects = new Map<string, Download>();

  store(download: Download): void {
    this.objects.set(`${download.device}:${download.name}`, download);
  }

  get(device: string, name: string): Download | undefined {
    return this.objects.get(`${device}:${name}`);
  }

  /** ^ID: deletes the objects matching a name, "*" standing for any characters. */
  delete(device: string, pattern: string): number {
    const matcher = new RegExp(`^${pattern.split('*').map(escapeRegExp).join('.*')}$`);
    let deleted = 0;
    for (const [key, download] of this.objects) {
      if (download.device === device && matcher.test(download.name)) {
        this.objects.delete(key);
        deleted += 1;
      }
    }
    return deleted;
  }

  /** Power-off: RAM forgets, flash remembers. */
  loseVolatile(): void {
    for (const [key, download] of this.objects) if (download.device === VOLATILE_DEVICE) this.objects.delete(key);
  }

  clear(): void {
    this.objects.clear();
  }

  /** "R:LOGO.GRF" and so on, for state(). */
  names(): string[] {
    return [...this.objects.keys()].sort();
  }
}

export class SettingsMemory {
  private saved: PrinterSettingsValues;
  current: PrinterSettingsValues;

  constructor(private factory: PrinterSettingsValues) {
    this.saved = { ...factory };
    this.current = { ...factory };
  }

  /** ^JUS: what is set now is what the printer powers on with. */
  save(): void {
    this.saved = { ...this.current };
  }

  /** Power-on and ^JUR: back to the saved settings. */
  revert(): void {
    this.current = { ...this.saved };
  }

  /** ^JUF, ^JUN, ^JUA: factory defaults, not saved until ^JUS. */
  restoreFactory(): void {
    this.current = { ...this.factory };
  }

  /** Another printer: its own factory settings, saved and current. */
  replace(factory: PrinterSettingsValues): void {
    this.factory = { ...factory };
    this.saved = { ...factory };
    this.current = { ...factory };
  }

  savedValues(): PrinterSettingsValues {
    return { ...this.saved };
  }
}

const escapeRegExp = (text: string): string => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
