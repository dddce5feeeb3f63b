/**
 * Before a network printer is saved, the address the caller named is asked one question only:
 * ~HI (host identification), three bytes that a Zebra answers with one short framed line and that
 * change nothing on any device. Nothing else goes to it (no label, no setvar, no other query)
 * until that answer has come back and reads as a Zebra's. What comes back is bounded in size and
 * time, so a server that streams bytes or never stops talking costs the station nothing.
 */
import net from 'node:net';
import { StationError } from '../../../shared/errors';
import { parseHostIdentification, type HostIdentification } from '../../../shared/zebra/identification';
import { identificationQuery, isQueryAnswered, queryCommand } from '../../../shared/zebra/queries';

export interface ZebraProbeOptions {
  host: string;
  port: number;
  /** Longest wait for the connection and for the whole answer. */
  timeoutMs?: number;
  /** A ~HI answer is well under 100 bytes; more than this is not one. */
  maxAnswerBytes?: number;
}

export const zebraProbeDefaults = { timeoutMs: 2000, maxAnswerBytes: 512 } as const;

export type ZebraProbeResult =
  | { kind: 'zebra'; identification: HostIdentification }
  /** Nothing answered the connection (switched off, wrong address): saved with a warning, as before. */
  | { kind: 'unreachable'; message: string };

/** Throws PRINTER_NOT_ZEBRA when something answered that is not a Zebra. */
export function probeZebra(options: ZebraProbeOptions): Promise<ZebraProbeResult> {
  const timeoutMs = options.timeoutMs ?? zebraProbeDefaults.timeoutMs;
  const maxBytes = options.maxAnswerBytes ?? zebraProbeDefaults.maxAnswerBytes;
  const where = `${options.host}:${options.port}`;
  return new Promise((resolve, reject) => {
    const received: Buffer[] = [];
    let receivedBytes = 0;
    let connected = false;
    let settled = false;
    const socket = net.connect({ host: options.host, port: options.port, noDelay: true });
    const finish = (outcome: { result: ZebraProbeResult } | { error: Error }): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if ('result' in outcome) resolve(outcome.result);
      else reject(outcome.error);
    };
    const notZebra = (what: string): void => {
      const said = excerpt(Buffer.concat(received));
      finish({
        error: new StationError(
          'PRINTER_NOT_ZEBRA',
          `The device at ${where} is not a Zebra printer: ${what}. Only the printer identification question (~HI) was sent to it; check the address and port.`,
          said ? [`It answered: ${said}`] : undefined,
        ),
      });
    };
    const timer = setTimeout(() => {
      if (!connected) finish({ result: { kind: 'unreachable', message: `Nothing at ${where} accepted a connection within ${seconds(timeoutMs)}.` } });
      else notZebra(receivedBytes === 0 ? `it accepted the connection but did not answer within ${seconds(timeoutMs)}` : `it did not finish an answer within ${seconds(timeoutMs)}`);
    }, timeoutMs);
    socket.on('connect', () => {
      connected = true;
      socket.write(queryCommand(identificationQuery), 'latin1');
    });
    socket.on('data', (chunk: Buffer) => {
      receivedBytes += chunk.byteLength;
      if (receivedBytes > maxBytes) {
        received.push(chunk.subarray(0, Math.max(0, maxBytes - (receivedBytes - chunk.byteLength))));
        notZebra(`it sent more than ${maxBytes} bytes, far more than a Zebra's answer`);
        return;
      }
      received.push(chunk);
      const text = Buffer.concat(received).toString('latin1');
      if (!isQueryAnswered(identificationQuery, text)) return;
      try {
        finish({ result: { kind: 'zebra', identification: parseHostIdentification(text) } });
      } catch {
        notZebra('its answer is not a Zebra printer identification');
      }
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (connected) notZebra(`the connection failed (${error.code ?? error.message})`);
      else finish({ result: { kind: 'unreachable', message: unreachableMessage(where, error) } });
    });
    socket.on('close', () => {
      if (connected) notZebra(receivedBytes === 0 ? 'it closed the connection without answering' : 'it closed the connection before a complete answer');
    });
  });
}

function unreachableMessage(where: string, error: NodeJS.ErrnoException): string {
  if (error.code === 'ECONNREFUSED') return `The printer at ${where} refused the connection. Check that it is switched on and that the address and port are right.`;
  if (error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN') return `The printer's host name in ${where} could not be found.`;
  return `The printer at ${where} cannot be reached on the network (${error.code ?? error.message}).`;
}

/** The first printable characters of an answer, for the message: "HTTP/1.1 400 Bad Request". */
function excerpt(bytes: Buffer): string {
  const text = bytes
    .subarray(0, 200)
    .toString('latin1')
    .replace(/[^\x20-\x7e]+/g, ' ')
    .trim();
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}
