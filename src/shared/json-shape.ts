/**
 * JSON from outside the station (a webhook, a socket message, a request body) is checked for its
 * shape before it is parsed: how deep its objects and arrays nest, how many keys one object has,
 * how many items one array has. `JSON.parse` itself builds a 60,000-deep array from 60 KB without
 * complaint, and everything that walks such a value afterwards (a recursive check, zod, logging,
 * `JSON.stringify`) can overflow the stack; a million keys in one object cost seconds in every
 * later step. The check reads the text once, left to right, holding one counter per open level,
 * so it never recurses and never takes more memory than the depth it allows.
 *
 * The check does not decide whether the text is JSON (JSON.parse does that afterwards): it only
 * refuses shapes beyond the limits, whatever else the text holds.
 */

export interface JsonShapeLimits {
  /** Objects and arrays inside one another (a flat object is depth 1). */
  maxDepth: number;
  /** Keys of any one object. */
  maxKeys: number;
  /** Items of any one array. */
  maxItems: number;
}

export type JsonShapeProblem =
  | { kind: 'too-deep'; limit: number }
  | { kind: 'too-many-keys'; limit: number }
  | { kind: 'too-many-items'; limit: number };

export type BoundedJson = { ok: true; value: unknown } | { ok: false; problem: JsonShapeProblem | { kind: 'not-json' } };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

const isWhitespace = (code: number): boolean => code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;

/** The first limit the text goes beyond, or null when its shape is within them. */
export function jsonShapeProblem(text: string, limits: JsonShapeLimits): JsonShapeProblem | null {
  // Per open level: whether it is an object, and how many entries it has so far.
  const isObject: boolean[] = [];
  const entries: number[] = [];
  // Whether the next token in the innermost level starts a new entry (just after its opening or a comma).
  let awaitingEntry = false;
  let inString = false;
  let escaped = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (escaped) escaped = false;
      else if (code === BACKSLASH) escaped = true;
      else if (code === QUOTE) inString = false;
      continue;
    }
    if (isWhitespace(code)) continue;
    const depth = entries.length;
    if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) {
      isObject.pop();
      entries.pop();
      awaitingEntry = false;
      continue;
    }
    if (code === COMMA) {
      awaitingEntry = depth > 0;
      continue;
    }
    if (awaitingEntry && code !== COLON) {
      awaitingEntry = false;
      const count = (entries[depth - 1] ?? 0) + 1;
      entries[depth - 1] = count;
      if (isObject[depth - 1] === true && count > limits.maxKeys) return { kind: 'too-many-keys', limit: limits.maxKeys };
      if (isObject[depth - 1] === false && count > limits.maxItems) return { kind: 'too-many-items', limit: limits.maxItems };
    }
    if (code === QUOTE) {
      inString = true;
    } else if (code === OPEN_OBJECT || code === OPEN_ARRAY) {
      if (depth + 1 > limits.maxDepth) return { kind: 'too-deep', limit: limits.maxDepth };
      isObject.push(code === OPEN_OBJECT);
      entries.push(0);
      awaitingEntry = true;
    }
  }
  return null;
}

/** The text parsed as JSON once its shape is within the limits; never throws. */
export function parseBoundedJson(text: string, limits: JsonShapeLimits): BoundedJson {
  const problem = jsonShapeProblem(text, limits);
  if (problem) return { ok: false, problem };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, problem: { kind: 'not-json' } };
  }
}

/** One sentence for a log line or a 400's message. */
export function describeJsonProblem(problem: JsonShapeProblem | { kind: 'not-json' }): string {
  switch (problem.kind) {
    case 'not-json':
      return 'the body is not JSON';
    case 'too-deep':
      return `objects and arrays nest more than ${problem.limit} deep`;
    case 'too-many-keys':
      return `an object has more than ${problem.limit} keys`;
    case 'too-many-items':
      return `an array has more than ${problem.limit} items`;
  }
}

/**
 * Whether any key or text in a parsed JSON value matches: walked with a list of values still to
 * look at, not by recursion, so no depth of input can overflow the stack.
 */
export function someJsonText(value: unknown, matches: (text: string) => boolean): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') {
      if (matches(next)) return true;
    } else if (Array.isArray(next)) {
      for (const item of next) pending.push(item);
    } else if (next !== null && typeof next === 'object') {
      for (const [key, item] of Object.entries(next)) {
        if (matches(key)) return true;
        pending.push(item);
      }
    }
  }
  return false;
}
