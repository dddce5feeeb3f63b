/**
 * A virtual serial scale for tests and demos, on one end of a pseudo-terminal pair (socat makes
 * the pair; the station opens the other end as it would a USB serial adapter). It speaks the
 * protocols from their documentation, written here independently of the station's parsers:
 *
 * - MT-SICS: answers `S` (waits for stability up to `stableTimeoutMs`, then `S I`), `SI` (now,
 *   `S D` while moving), `Z` (zero: `Z A`), `@` (reset: `I4 A "<serial>"`); anything else `ES`.
 *   Overload answers `S +`, a negative load `S -`.
 * - Toledo continuous: a frame every `intervalMs`: STX, status words A/B/C, six weight digits,
 *   six tare digits, CR (and a checksum when asked). Weight in kg with three decimals.
 *
 * A test puts a parcel on it (`place`), which moves for `settleMs` before it is steady, or makes it
 * overloaded, negative or silent (`off`, as if switched off).
 */
import { SerialPort } from 'serialport';

export type VirtualScaleProtocol = 'mt-sics' | 'toledo-continuous';
export type VirtualScaleState = 'steady' | 'motion' | 'overload' | 'negative' | 'off';

export interface VirtualScaleOptions {
  path: string;
  protocol: VirtualScaleProtocol;
  baudRate?: number;
  /** Toledo continuous: send the checksum character after CR. */
  checksum?: boolean;
  intervalMs?: number;
  stableTimeoutMs?: number;
  serial?: string;
}

const pad = (text: string, width: number) => text.padStart(width, ' ');

export class VirtualScale {
  private port: SerialPort | null = null;
  private grams = 0;
  private state: VirtualScaleState = 'steady';
  private settleTimer: ReturnType<typeof setTimeout> | null = null;
  private streamTimer: ReturnType<typeof setInterval> | null = null;
  private input = '';
  /** Every command line the scale received, for tests. */
  readonly received: string[] = [];

  constructor(private readonly options: VirtualScaleOptions) {}

  async start(): Promise<void> {
    const port = new SerialPort({ path: this.options.path, baudRate: this.options.baudRate ?? 9600, autoOpen: false });
    await new Promise<void>((resolve, reject) => port.open((error) => (error ? reject(error) : resolve())));
    this.port = port;
    port.on('data', (chunk: Buffer) => this.read(chunk));
    if (this.options.protocol === 'toledo-continuous') {
      this.streamTimer = setInterval(() => this.sendFrame(), this.options.intervalMs ?? 100);
    }
  }

  /** A parcel set down: the load moves for `settleMs`, then holds at `grams`. */
  place(grams: number, settleMs = 400): void {
    this.clearSettle();
    this.grams = grams;
    this.state = settleMs > 0 ? 'motion' : 'steady';
    if (settleMs > 0)
      this.settleTimer = setTimeout(() => {
        this.settleTimer = null;
        this.state = 'steady';
      }, settleMs);
  }

  /** Overloaded, negative (a tare taken with the box on), moving without end, or switched off. */
  set(state: VirtualScaleState): void {
    this.clearSettle();
    this.state = state;
  }

  async stop(): Promise<void> {
    this.clearSettle();
    if (this.streamTimer) clearInterval(this.streamTimer);
    this.streamTimer = null;
    const port = this.port;
    this.port = null;
    if (port?.isOpen) await new Promise<void>((resolve) => port.close(() => resolve()));
  }

  private clearSettle(): void {
    if (this.settleTimer) clearTimeout(this.settleTimer);
    this.settleTimer = null;
  }

  private write(text: string | Uint8Array): void {
    if (this.state !== 'off') this.port?.write(typeof text === 'string' ? Buffer.from(text, 'latin1') : Buffer.from(text));
  }

  private read(chunk: Buffer): void {
    if (this.options.protocol !== 'mt-sics') return;
    this.input += chunk.toString('latin1');
    let end: number;
    while ((end = this.input.indexOf('\n')) >= 0) {
      const line = this.input.slice(0, end).replace(/\r$/, '');
      this.input = this.input.slice(end + 1);
      this.received.push(line);
      this.answer(line.trim());
    }
    if (this.input.length > 256) this.input = '';
  }

  private weightLine(status: 'S' | 'D'): string {
    return `S ${status} ${pad(this.grams.toFixed(1), 10)} g\r\n`;
  }

  private answer(command: string): void {
    switch (command) {
      case 'SI':
        if (this.state === 'overload') return this.write('S +\r\n');
        if (this.state === 'negative') return this.write('S -\r\n');
        return this.write(this.weightLine(this.state === 'motion' ? 'D' : 'S'));
      case 'S': {
        if (this.state === 'overload') return this.write('S +\r\n');
        if (this.state === 'negative') return this.write('S -\r\n');
        if (this.state === 'steady') return this.write(this.weightLine('S'));
        const deadline = Date.now() + (this.options.stableTimeoutMs ?? 1000);
        const wait = setInterval(() => {
          if (this.state === 'steady') {
            clearInterval(wait);
            this.write(this.weightLine('S'));
          } else if (Date.now() > deadline) {
            clearInterval(wait);
            this.write('S I\r\n');
          }
        }, 50);
        return;
      }
      case 'Z':
        this.grams = 0;
        return this.write('Z A\r\n');
      case '@':
        return this.write(`I4 A "${this.options.serial ?? '0123456789'}"\r\n`);
      default:
        return this.write('ES\r\n');
    }
  }

  private sendFrame(): void {
    // Status word A: bit 5 always set; increment x1 (bit 3); decimal point XXX.XXX (code 5).
    const a = 0x20 | 0x08 | 5;
    let b = 0x20 | 0x10;
    if (this.state === 'motion') b |= 0x08;
    if (this.state === 'overload') b |= 0x04;
    if (this.state === 'negative') b |= 0x02;
    const c = 0x20;
    const milligramsOfKg = Math.min(999_999, Math.round(Math.abs(this.grams)));
    const digits = this.state === 'overload' ? '999999' : String(milligramsOfKg).padStart(6, '0');
    const body = [0x02, a, b, c, ...Buffer.from(digits + '000000', 'latin1'), 0x0d];
    if (this.options.checksum) {
      const sum = body.reduce((total, byte) => total + (byte & 0x7f), 0);
      body.push(-sum & 0x7f);
    }
    this.write(Uint8Array.from(body));
  }
}
