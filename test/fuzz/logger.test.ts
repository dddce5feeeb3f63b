/**
 * The log takes whatever a request brought with it (a body, an error, a header list): for any
 * value, nested without end, holding itself, or holding what JSON cannot write, the logger writes
 * exactly one JSON line and returns, never throws; a registered secret never reaches the line.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/main/logging/logger';
import { fuzz } from './budget';

const secret = 'sk_live_a1b2c3d4e5f6';
const deep = JSON.parse(`${'['.repeat(20_000)}${']'.repeat(20_000)}`) as unknown;

describe('the logger (fuzzed)', () => {
  it('writes one JSON line for any fields, never throwing, and never the registered secret', () => {
    fc.assert(
      fc.property(fc.anything({ maxDepth: 8, withBigInt: true, withMap: true, withSet: true, withTypedArray: true, withBoxedValues: true, withNullPrototype: true, withSparseArray: true }), fc.boolean(), fc.integer({ min: 0, max: 3 }), (value, loop, depthTimes) => {
        let fields: Record<string, unknown> = { value, note: `key ${secret} used`, apiKey: secret };
        if (loop) fields.self = fields;
        for (let n = 0; n < depthTimes; n += 1) fields = { inner: [fields, deep] };
        const lines: string[] = [];
        const logger = createLogger((line) => lines.push(line));
        logger.addSecret(secret);
        logger.warn('a request failed', fields);
        expect(lines).toHaveLength(1);
        expect(() => JSON.parse(lines[0] ?? '')).not.toThrow();
        expect(lines[0]).not.toContain(secret);
      }),
      fuzz(500),
    );
  });
});
