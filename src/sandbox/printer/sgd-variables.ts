// The Set-Get-Do variables the virtual Zebra knows. A Zebra answers "?" for any other name.
import { formatUptime } from './printer-identity';
import { hostStatusSgdValue, type StatusSnapshot } from './status-replies';

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
  /** Current darkness, 0–30. */
  darkness: number;
}

export const UNKNOWN_SGD_VALUE = '?';

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
  'print.tone': (c) => c.darkness.toFixed(1),
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
    const override = this.overrides.get(key);
    if (override !== undefined) return override;
    const fallback = writableDefaults[key];
    return fallback ? fallback(context) : UNKNOWN_SGD_VALUE;
  }

  /** Another printer: none of the values set on the previous one. */
  clear(): void {
    this.overrides.clear();
  }

  /** Stores a setvar of a writable variable; anything else is ignored, as a Zebra does. */
  set(name: string, value: string): boolean {
    const key = name.toLowerCase();
    if (!(key in writableDefaults)) return false;
    this.overrides.set(key, value);
    return true;
  }
}
