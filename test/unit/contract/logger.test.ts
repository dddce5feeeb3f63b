import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/main/logging/logger';

describe('logger redaction', () => {
  it('never writes an api-key header or field', () => {
    const lines: string[] = [];
    const logger = createLogger((line) => lines.push(line));
    logger.info('request', { headers: { 'api-key': 'k-123456', accept: 'application/json' }, apiKey: 'k-123456' });
    logger.warn('raw header line api-key: k-123456 sent');
    expect(lines.join('\n')).not.toContain('k-123456');
    expect(lines.join('\n')).toContain('application/json');
  });

  it('replaces a registered secret wherever it appears', () => {
    const lines: string[] = [];
    const logger = createLogger((line) => lines.push(line));
    logger.addSecret('sk_test_abcdef');
    logger.error('request to https://x/?q=sk_test_abcdef failed', { nested: { list: ['sk_test_abcdef'] } });
    expect(lines.join('\n')).not.toContain('sk_test_abcdef');
  });

  it('drops lines below the level', () => {
    const lines: string[] = [];
    const logger = createLogger((line) => lines.push(line), { level: 'warn' });
    logger.info('quiet');
    logger.warn('loud');
    expect(lines).toHaveLength(1);
  });
});
