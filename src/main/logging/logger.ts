/**
 * The station's structured logger. Every line passes through the redactor first, so the API key
 * and any `api-key` header value can never reach a sink, whatever a caller passes in.
 */
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

const REDACTED = '[redacted]';
const secretFieldName = /^(api-?key|apikey|authorization|token|secret|password)$/i;

export function createLogger(sink: LogSink, options: { level?: LogLevel; clock?: () => Date } = {}): Logger {
  const order: LogLevel[] = ['debug', 'info', 'warn', 'error'];
  const threshold = order.indexOf(options.level ?? 'info');
  const clock = options.clock ?? (() => new Date());
  const secrets = new Set<string>();

  const redactText = (text: string): string => {
    let result = text.replace(/(api-?key["']?\s*[:=]\s*["']?)[^"',\s}]+/gi, `$1${REDACTED}`);
    for (const secret of secrets) result = result.split(secret).join(REDACTED);
    return result;
  };

  const redactValue = (value: unknown, depth = 0): unknown => {
    if (typeof value === 'string') return redactText(value);
    if (depth > 6 || value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1));
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [key, secretFieldName.test(key) ? REDACTED : redactValue(inner, depth + 1)]),
    );
  };

  const write = (level: LogLevel, message: string, fields?: LogFields) => {
    if (order.indexOf(level) < threshold) return;
    const record = { time: clock().toISOString(), level, message: redactText(message), ...(fields ? (redactValue(fields) as LogFields) : {}) };
    sink(JSON.stringify(record));
  };

  return {
    debug: (message, fields) => write('debug', message, fields),
    info: (message, fields) => write('info', message, fields),
    warn: (message, fields) => write('warn', message, fields),
    error: (message, fields) => write('error', message, fields),
    addSecret: (secret) => {
      if (secret.length >= 4) secrets.add(secret);
    },
  };
}
