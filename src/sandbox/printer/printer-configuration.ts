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
import { ObjectMemory, SettingsMemory, type PrinterSettingsValues } from './printer-memory';
import type { ConfigurationCommand } from './virtual-zebra-types';

const RECORD_LIMIT = 10_000;
const MAX_DARKNESS = 30;

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
    this.settings.current.darkness = Math.max(0, Math.min(MAX_DARKNESS, value));
  }

  /** A tilde command read outside a format that is neither a query nor a download. */
  tilde(code: string): void {
    if (PRINTER_CHANGING_TILDE_CODES.has(code)) this.recordCommand(`~${code}`);
  }

  /**
   * Runs the commands of a format that act on the printer, in order, as a Zebra does while it
   * reads the format; returns the downloads the format recalls (^XG, ^IM), for rendering.
   */
  runFormat(zpl: string): string {
    let recalled = '';
    for (const command of formatCommands(zpl)) {
      const configuration = configurationText(command);
      if (configuration !== null) this.recordCommand(configuration);
      if (command.prefix === '~') {
        if (command.code === 'SD' && /^\d{1,2}/.test(command.params)) this.setDarkness(Number.parseInt(command.params, 10));
        const download = downloadInFormat(command);
        if (download) this.objects.store(download);
        continue;
      }
      switch (command.code) {
        case 'JU':
          this.runSettingsCommand(command.params.trim().charAt(0).toUpperCase());
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
    return recalled;
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
