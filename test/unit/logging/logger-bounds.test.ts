/**
 * A log line never costs the process: a value from outside nested without end, a value that holds
 * itself, or a number JSON cannot write still gives one line, and the call returns.
 */
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/main/logging/logger';

const deep = (levels: number): unknown => JSON.parse(`${'['.repeat(levels)}${']'.repeat(levels)}`);

describe('the logger\'s bounds', () => {
  it('writes a value nested 100,000 deep as its first levels and a mark', () => {
    const lines: string[] = [];
    createLogger((line) => lines.push(line)).warn('webhook body', { body: deep(100_000) });
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ message: 'webhook body', body: [[[[[['[nested]']]]]]] });
  });

  it('writes a value that holds itself, and a BigInt, without throwing', () => {
    const lines: string[] = [];
    const logger = createLogger((line) => lines.push(line));
    const looped: Record<string, unknown> = { name: 'loop' };
    looped.self = looped;
    logger.error('looped', { looped });
    logger.error('counted', { count: 10n });
    expect(lines.map((line) => JSON.parse(line) as { message: string; fieldsLost?: string }).map(({ message, fieldsLost }) => [message, fieldsLost !== undefined])).toEqual([
      ['looped', false],
      ['counted', true],
    ]);
  });

  it('writes a Map whose key cannot be turned into text (an object without a prototype) (found by fuzzing)', () => {
    const lines: string[] = [];
    const key = Object.create(null) as object;
    createLogger((line) => lines.push(line)).warn('headers', { headers: new Map([[key, 'value']]) });
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ message: 'headers', headers: { '[object Object]': 'value' } });
  });
});
