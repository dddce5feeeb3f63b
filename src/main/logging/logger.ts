/**
 * The station's structured logger. Every line passes through the redactor first, so the API key
 * and any `api-key` header value can never reach a sink, whatever a caller passes in.
 */
import { createRedactor, type Redactor } from './redaction';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /** Remember a secret so every later line has it replaced; used when a key is loaded or set. */
  addSecret(secret: string): void;
}

export type LogSink = (line: string) => void;

export interface LoggerOptions {
  level?: LogLevel;
  clock?: () => Date;
  /** Share one redactor (and so its registered secrets) with a support bundle. */
  redactor?: Redactor;
}

const order: LogLevel[] = ['debug', 'info', 'warn', 'error'];

export function createLogger(sink: LogSink, options: LoggerOptions = {}): Logger {
  const threshold = order.indexOf(options.level ?? 'info');
  const clock = options.clock ?? (() => new Date());
  const redactor = options.redactor ?? createRedactor();

  const write = (level: LogLevel, message: string, fields?: LogFields) => {
    if (order.indexOf(level) < threshold) return;
    const record = {
      time: clock().toISOString(),
      level,
      message: redactor.text(message),
      ...(fields ? (redactor.value(fields) as LogFields) : {}),
    };
    sink(serialize(record));
  };

  return {
    debug: (message, fields) => write('debug', message, fields),
    info: (message, fields) => write('info', message, fields),
    warn: (message, fields) => write('warn', message, fields),
    error: (message, fields) => write('error', message, fields),
    addSecret: (secret) => redactor.addSecret(secret),
  };
}

/** The record as one JSON line; a field JSON cannot hold (a BigInt) costs the fields, never the line. */
function serialize(record: { time: string; level: LogLevel; message: string }): string {
  try {
    return JSON.stringify(record);
  } catch (error) {
    return JSON.stringify({ time: record.time, level: record.level, message: record.message, fieldsLost: error instanceof Error ? error.message : String(error) });
  }
}

/** One line to several sinks (the log file and the terminal); a failing sink never stops the others. */
export function teeSinks(...sinks: LogSink[]): LogSink {
  return (line) => {
    for (const sink of sinks) {
      try {
        sink(line);
      } catch {
        // A log sink must never take the station down; the other sinks still get the line.
      }
    }
  };
}
