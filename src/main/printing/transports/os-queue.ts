/** A printer queue the operating system offers, as the "add printer" list shows it. */
export interface OsQueue {
  /** The name to print to: a CUPS queue name or a Windows printer name. */
  name: string;
  system: 'cups' | 'windows';
  state: 'idle' | 'printing' | 'disabled' | 'unknown';
  /** Whether the queue takes new jobs; null when the OS did not say. */
  accepting: boolean | null;
  isDefault: boolean;
}
