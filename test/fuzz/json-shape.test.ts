/**
 * The JSON shape check every outside JSON goes through before it is parsed (webhooks, the web
 * host's socket, the sandbox's bodies). Against a model (the parsed value measured level by
 * level), for JSON of any shape, spacing and text: it refuses exactly what goes beyond a limit,
 * names the right limit, never throws, and reads a text in time linear in its length.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonShapeProblem, parseBoundedJson, someJsonText, type JsonShapeLimits } from '../../src/shared/json-shape';
import { fuzz, timed } from './budget';

/** Depth, most keys of one object and most items of one array, measured without recursion. */
function measure(value: unknown): { depth: number; keys: number; items: number } {
  let depth = 0;
  let keys = 0;
  let items = 0;
  const pending: { value: unknown; level: number }[] = [{ value, level: 0 }];
  while (pending.length > 0) {
    const { value: next, level } = pending.pop()!;
    if (Array.isArray(next)) {
      depth = Math.max(depth, level + 1);
      items = Math.max(items, next.length);
      for (const item of next) pending.push({ value: item, level: level + 1 });
    } else if (next !== null && typeof next === 'object') {
      depth = Math.max(depth, level + 1);
      const entries = Object.values(next);
      keys = Math.max(keys, entries.length);
      for (const item of entries) pending.push({ value: item, level: level + 1 });
    }
  }
  return { depth, keys, items };
}

/** What the check should say of a value, by the model: the first limit it goes beyond, if any. */
function beyond(value: unknown, limits: JsonShapeLimits): Set<string> {
  const measured = measure(value);
  const kinds = new Set<string>();
  if (measured.depth > limits.maxDepth) kinds.add('too-deep');
  if (measured.keys > limits.maxKeys) kinds.add('too-many-keys');
  if (measured.items > limits.maxItems) kinds.add('too-many-items');
  return kinds;
}

const limitsArbitrary = fc.record({ maxDepth: fc.integer({ min: 1, max: 6 }), maxKeys: fc.integer({ min: 1, max: 5 }), maxItems: fc.integer({ min: 1, max: 5 }) });
// Text with what could confuse a scanner: brackets, braces, commas, colons, quotes and escapes inside strings.
const trickyText = fc.string({ unit: fc.constantFrom('[', ']', '{', '}', ',', ':', '"', '\\', ' ', 'a', '\u0000', '\u2028', '😀'), maxLength: 12 });
const jsonValue = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    trickyText,
    fc.array(tie('value'), { maxLength: 7 }),
    fc.dictionary(trickyText, tie('value'), { maxKeys: 7 }),
  ),
})).value;
/** The value as JSON, compact or indented with spaces, tabs or line breaks as a sender might. */
const asText = (value: unknown, spacing: string) => (spacing === '' ? JSON.stringify(value) : JSON.stringify(value, null, spacing));

describe('the JSON shape check (fuzzed)', () => {
  it('refuses exactly the values beyond a limit, naming one they go beyond, whatever their text and spacing', () => {
    fc.assert(
      fc.property(jsonValue, limitsArbitrary, fc.constantFrom('', ' ', '\t', '\r\n '), (value, limits, spacing) => {
        const problem = jsonShapeProblem(asText(value, spacing), limits);
        const expected = beyond(value, limits);
        if (expected.size === 0) expect(problem).toBeNull();
        else expect(expected.has(problem?.kind ?? 'nothing')).toBe(true);
      }),
      fuzz(3000),
    );
  });

  it('parses what is within the limits to the very value JSON.parse gives (a round trip)', () => {
    fc.assert(
      fc.property(jsonValue, (value) => {
        const text = JSON.stringify(value);
        expect(parseBoundedJson(text, { maxDepth: 1000, maxKeys: 1000, maxItems: 1000 })).toEqual({ ok: true, value: JSON.parse(text) });
      }),
      fuzz(1000),
    );
  });

  it('never throws on any text, and answers "not-json" or a limit for what JSON.parse refuses', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 200 }), fc.string({ unit: fc.constantFrom('[', ']', '{', '}', '"', '\\', ',', ':', '1', ' '), maxLength: 200 })), limitsArbitrary, (text, limits) => {
        const parsed = parseBoundedJson(text, limits);
        let valid = true;
        try {
          JSON.parse(text);
        } catch {
          valid = false;
        }
        if (!valid) expect(parsed.ok).toBe(false);
      }),
      fuzz(3000),
    );
  });

  it('reads a megabyte of nesting, keys or items in well under a second (linear, never recursive)', () => {
    fc.assert(
      fc.property(fc.constantFrom('[', '{"a":', '{"', '"\\', '[1,', '{"k":1,'), fc.integer({ min: 100_000, max: 250_000 }), (unit, repeats) => {
        const text = unit.repeat(repeats);
        const { ms } = timed(() => jsonShapeProblem(text, { maxDepth: 64, maxKeys: 10_000, maxItems: 100_000 }), 1000);
        expect(ms).toBeLessThan(1000);
      }),
      fuzz(12),
    );
  });

  it('finds a text in any key or string of any value, as a recursive walk would, and in one nested 200,000 deep', () => {
    const recursive = (value: unknown, matches: (text: string) => boolean): boolean => {
      if (typeof value === 'string') return matches(value);
      if (Array.isArray(value)) return value.some((item) => recursive(item, matches));
      if (value !== null && typeof value === 'object') return Object.entries(value).some(([key, item]) => matches(key) || recursive(item, matches));
      return false;
    };
    fc.assert(
      fc.property(jsonValue, (value) => {
        const holdsNul = (text: string) => text.includes('\u0000');
        expect(someJsonText(value, holdsNul)).toBe(recursive(value, holdsNul));
      }),
      fuzz(2000),
    );
    const deep = JSON.parse(`${'['.repeat(200_000)}"\\u0000"${']'.repeat(200_000)}`) as unknown;
    expect(someJsonText(deep, (text) => text.includes('\u0000'))).toBe(true);
  });
});
