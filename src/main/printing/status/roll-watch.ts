/**
 * The roll each network or USB Zebra holds, against the service's A6 label (roll-and-head.ts),
 * read once per connection to it: a new connection may reach a printer whose roll was changed
 * while it was away, or another printer altogether. It is read off every label's path: only while
 * the printer's queue has nothing of ours to send or prove, one question at a time, and it stops
 * as soon as a label comes (a label that comes while a question is out waits for that one answer,
 * a few milliseconds on a LAN). What it read is kept with the connection's number, so the printer
 * card, `printers status` and the check before a shift-start run ask nothing more on that
 * connection.
 */
import { printerAddressKey } from '../../../shared/zebra/printer-address';
import { parseHostStatus } from '../../../shared/zebra/host-status';
import { parseHostIdentification } from '../../../shared/zebra/identification';
import { parseSettingNumber, settingVariables } from '../../../shared/zebra/printer-settings';
import { getvarQuery, hostStatusQuery, identificationQuery, type ZebraQuery } from '../../../shared/zebra/queries';
import { ZebraReplyError } from '../../../shared/zebra/reply-error';
import { rollFit, type RollFit } from '../../../shared/zebra/roll-and-head';
import { parseSgdReply } from '../../../shared/zebra/sgd';
import type { Logger } from '../../logging/logger';
import type { PrinterRecord } from '../printers';
import { canQuery, PrinterTransportError, type PrinterTransport, type StatusTransport } from '../transports/transport';
import { SGD } from './printer-identity';
import { errorText } from '../../../shared/error-text';

export interface RollWatchDeps {
  transports: { forPrinter(address: PrinterRecord['address']): PrinterTransport };
  /** Nothing of ours waits for the printer or is on its way to it: only then is it asked. */
  idle(printer: PrinterRecord): boolean;
  /** A roll was read on a new connection (or by a settings read or a calibration). */
  onRead?(printer: PrinterRecord, roll: KnownRoll): void;
  timeoutMs?: number;
  /** How often a reading waiting for the queue to go idle looks again. */
  waitStepMs?: number;
  /**
   * How long after a label's look at the printer nothing is asked: a scan looks at the printer at
   * its scanner's first keys (printing.prepare) and again when its label is fetched, before its
   * queue has any work.
   */
  quietMs?: number;
  logger?: Logger;
}

export interface KnownRoll {
  fit: RollFit;
  /** When it was read (ISO 8601). */
  readAt: string;
}

interface Reading extends KnownRoll {
  /** The transport's connection it was read on. */
  connection: number;
}

/** A question was not asked: a label came for the printer. */
class LabelCame extends Error {}

type CountingTransport = StatusTransport & { readonly connectionCount: number; readonly connected: boolean };

function countsConnections(transport: PrinterTransport): transport is CountingTransport {
  return canQuery(transport) && typeof (transport as Partial<CountingTransport>).connectionCount === 'number';
}

export class RollWatch {
  private readonly readings = new Map<string, Reading>();
  private readonly checking = new Map<string, Promise<KnownRoll | null>>();
  /** When a label last looked at the printer at each address (Date.now()). */
  private readonly lastLook = new Map<string, number>();
  private closed = false;

  constructor(private readonly deps: RollWatchDeps) {}

  /** The roll as last read at the printer's address, on this connection or an earlier one; null when never read. */
  last(printer: PrinterRecord): KnownRoll | null {
    const reading = this.readings.get(printerAddressKey(printer.address));
    return reading ? { fit: reading.fit, readAt: reading.readAt } : null;
  }

  /** A label looked at the printer (status/identity-watch.ts): a new connection's roll is read once it has gone. */
  looked(printer: PrinterRecord, connection: 'known' | 'new'): void {
    this.lastLook.set(printerAddressKey(printer.address), Date.now());
    if (connection === 'new') this.connected(printer);
  }

  /**
   * A connection to the printer is up (a label's look at the printer found it new, or a printer
   * was added): its roll is read in the background once the queue is idle, unless it was read on
   * this connection already. Nobody waits for it.
   */
  connected(printer: PrinterRecord): void {
    const transport = this.deps.transports.forPrinter(printer.address);
    if (!countsConnections(transport)) return;
    const connection = transport.connectionCount;
    const step = this.deps.waitStepMs ?? 250;
    // That connection only: once it has gone (idle, or the printer restarted) the next one is read when it comes.
    const still = () => !this.closed && transport.connected && transport.connectionCount === connection;
    const attempt = async (): Promise<void> => {
      while (still() && !this.knownNow(printer)) {
        if (this.mayAsk(printer) && (await this.attempt(printer)) !== null) return;
        await new Promise((resolve) => setTimeout(resolve, step).unref());
      }
    };
    attempt().catch((error: unknown) => this.deps.logger?.info('the roll could not be read', { printer: printer.name, error: errorText(error) }));
  }

  /**
   * The roll on the connection open now, read now when it was not yet (only while the queue is
   * idle: a label coming meanwhile wins, and the last reading is answered). Null when the printer
   * cannot be asked or has never answered.
   */
  async current(printer: PrinterRecord): Promise<KnownRoll | null> {
    const known = this.knownNow(printer);
    if (known) return known;
    const read = await this.attempt(printer).catch((error: unknown) => {
      if (error instanceof PrinterTransportError) return null;
      throw error;
    });
    return read ?? this.last(printer);
  }

  /** A roll read by someone else on the connection open now (a settings read, a calibration). */
  record(printer: PrinterRecord, fit: RollFit, readAt: string): void {
    const transport = this.deps.transports.forPrinter(printer.address);
    if (!countsConnections(transport)) return;
    this.readings.set(printerAddressKey(printer.address), { fit, readAt, connection: transport.connectionCount });
    this.deps.onRead?.(printer, { fit, readAt });
  }

  /** The station stops: checks waiting for a queue give up. */
  close(): void {
    this.closed = true;
  }

  /** Nothing of ours is on its way to the printer, and no label has looked at it for a moment. */
  private mayAsk(printer: PrinterRecord): boolean {
    const lookedAt = this.lastLook.get(printerAddressKey(printer.address));
    return this.deps.idle(printer) && (lookedAt === undefined || Date.now() - lookedAt >= (this.deps.quietMs ?? 500));
  }

  /** The reading made on the connection open now, if any. */
  private knownNow(printer: PrinterRecord): KnownRoll | null {
    const transport = this.deps.transports.forPrinter(printer.address);
    const known = this.readings.get(printerAddressKey(printer.address));
    if (!known || !countsConnections(transport) || !transport.connected || known.connection !== transport.connectionCount) return null;
    return { fit: known.fit, readAt: known.readAt };
  }

  /** One reading, unless the queue has work; null when a label came first. One at a time per address. */
  private attempt(printer: PrinterRecord): Promise<KnownRoll | null> {
    const transport = this.deps.transports.forPrinter(printer.address);
    if (!countsConnections(transport) || !this.mayAsk(printer)) return Promise.resolve(null);
    const key = printerAddressKey(printer.address);
    const running = this.checking.get(key);
    if (running) return running;
    const started = this.read(printer, transport).finally(() => this.checking.delete(key));
    this.checking.set(key, started);
    return started;
  }

  private async read(printer: PrinterRecord, transport: CountingTransport): Promise<KnownRoll | null> {
    const limits = this.deps.timeoutMs !== undefined ? { timeoutMs: this.deps.timeoutMs } : {};
    /** One question, asked only while nothing of ours is on its way to the printer. */
    const ask = async <T>(query: ZebraQuery, parse: (answer: string) => T): Promise<T | null> => {
      if (!this.mayAsk(printer)) throw new LabelCame();
      try {
        return parse(await transport.query(query, limits));
      } catch (error) {
        // Silence to SGD (old firmware) or an answer not understood: that fact stays unknown.
        if (error instanceof ZebraReplyError || (error instanceof PrinterTransportError && error.failure === 'no-answer')) return null;
        throw error;
      }
    };
    const sgdNumber = (name: string) => ask(getvarQuery(name), (answer) => parseSettingNumber(parseSgdReply(name, answer)));
    try {
      // Firmware that does not say its resolution over SGD gives it in ~HI (dots per millimetre).
      const dpi = (await sgdNumber(SGD.resolution)) ?? (await ask(identificationQuery, (answer) => parseHostIdentification(answer).dpi));
      const width = await sgdNumber(settingVariables.printWidth);
      // The label length ~HS reports when SGD does not say.
      const length = (await sgdNumber(settingVariables.labelLength)) ?? (await ask(hostStatusQuery, (answer) => parseHostStatus(answer).labelLengthDots));
      const round = (value: number | null) => (value === null ? null : Math.round(value));
      const fit = rollFit(round(dpi), round(width), round(length));
      const readAt = new Date().toISOString();
      this.readings.set(printerAddressKey(printer.address), { fit, readAt, connection: transport.connectionCount });
      if (fit.fits === false) this.deps.logger?.warn('the roll in the printer does not fit the A6 label', { printer: printer.name, issues: fit.issues });
      this.deps.onRead?.(printer, { fit, readAt });
      return { fit, readAt };
    } catch (error) {
      if (error instanceof LabelCame) return null;
      throw error;
    }
  }
}
