/**
 * Redaction of secrets from anything about to be written down (a log line, a support bundle).
 * Two nets: values under a secret-looking name (an `api-key` header, an `apiKey` field, a raw
 * header list `['api-key', value]`) and every secret registered at run time, wherever it appears.
 */
export const REDACTED = '[redacted]';
/** What stands for a value nested deeper than a log line goes. */
export const NESTED = '[nested]';

const secretName = /^(x-)?(api[-_]?key|apikey|authorization|proxy-authorization|token|access[-_]?token|secret|password|passphrase|cookie|set-cookie)$/i;
// `api-key: value`, `"apiKey":"value"`, `api_key=value` in free text, URLs and JSON strings.
const inlineApiKey = /(api[-_]?key["']?\s*[:=]\s*["']?)[^"'&,;\s}]+/gi;

export interface Redactor {
  text(value: string): string;
  value(value: unknown): unknown;
  addSecret(secret: string): void;
}

export const isSecretName = (name: string): boolean => secretName.test(name);

/** A Map's key as text: some keys (an object without a prototype) cannot be turned into one by String(). */
function keyName(key: unknown): string {
  if (typeof key === 'string') return key;
  try {
    return String(key);
  } catch {
    return Object.prototype.toString.call(key);
  }
}

export function createRedactor(): Redactor {
  const secrets = new Set<string>();

  const text = (input: string): string => {
    let result = input.replace(inlineApiKey, `$1${REDACTED}`);
    for (const secret of secrets) result = result.split(secret).join(REDACTED);
    return result;
  };

  const entries = (pairs: Iterable<[unknown, unknown]>, depth: number): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of pairs) {
      const name = keyName(key);
      out[text(name)] = isSecretName(name) ? REDACTED : value(inner, depth + 1);
    }
    return out;
  };

  const value = (input: unknown, depth = 0): unknown => {
    if (typeof input === 'string') return text(input);
    if (input === null || typeof input !== 'object') return input;
    // Only so deep: a value from outside (or one that holds itself) would otherwise be walked, and
    // written out, level by level until the stack ran out.
    if (depth > 6) return NESTED;
    if (Array.isArray(input)) {
      // Raw header lists alternate name and value: the value after a secret name is a secret.
      return input.map((item, index) => {
        const previous = index > 0 ? input[index - 1] : undefined;
        if (typeof previous === 'string' && isSecretName(previous)) return REDACTED;
        return value(item, depth + 1);
      });
    }
    if (input instanceof Error) {
      return { name: input.name, message: text(input.message), ...(input.cause !== undefined ? { cause: value(input.cause, depth + 1) } : {}) };
    }
    if (input instanceof Map) return entries(input.entries(), depth);
    const iterableEntries = (input as { entries?: unknown }).entries;
    if (typeof iterableEntries === 'function' && typeof (input as { get?: unknown }).get === 'function') {
      // Headers-like objects (undici's Headers, URLSearchParams) keep their pairs behind entries().
      return entries((input as { entries(): Iterable<[unknown, unknown]> }).entries(), depth);
    }
    return entries(Object.entries(input), depth);
  };

  return {
    text,
    value,
    addSecret(secret) {
      if (secret.length >= 4) secrets.add(secret);
    },
  };
}
