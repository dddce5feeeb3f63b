import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/main/logging/logger';
import { createRotatingFileSink } from '../../../src/main/logging/rotating-file-sink';

const folders: string[] = [];
const tempFolder = () => {
  const folder = mkdtempSync(join(tmpdir(), 'station-logs-'));
  folders.push(folder);
  return folder;
};
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const readAllLines = (folder: string) =>
  readdirSync(folder)
    .sort()
    .flatMap((name) => readFileSync(join(folder, name), 'utf8').split('\n').filter(Boolean));

describe('the rotating log file', () => {
  it('rotates by size and keeps a bounded number of files, newest lines in station.log', () => {
    const folder = tempFolder();
    const sink = createRotatingFileSink({ directory: folder, maxBytes: 4096, maxFiles: 3 });
    const logger = createLogger(sink.write);
    for (let index = 0; index < 400; index += 1) logger.info('label printed', { index, order: `ORD-${index}` });
    sink.close();

    expect(readdirSync(folder).sort()).toEqual(['station.1.log', 'station.2.log', 'station.log']);
    for (const name of readdirSync(folder)) expect(statSync(join(folder, name)).size).toBeLessThanOrEqual(4096);
    const newest = readFileSync(join(folder, 'station.log'), 'utf8').trim().split('\n');
    expect(JSON.parse(newest.at(-1) ?? '{}')).toMatchObject({ message: 'label printed', index: 399 });
    // What is kept is the most recent stretch, with no gap and no line cut in half.
    const indexes = readAllLines(folder).map((line) => (JSON.parse(line) as { index: number }).index).sort((a, b) => a - b);
    expect(indexes.at(-1)).toBe(399);
    expect(indexes).toEqual(Array.from({ length: indexes.length }, (_, offset) => 400 - indexes.length + offset));
    expect(sink.files().map((file) => file.slice(folder.length + 1))).toEqual(['station.log', 'station.1.log', 'station.2.log']);
  });

  it('appends to the file a previous run left, and counts its size towards rotation', () => {
    const folder = tempFolder();
    writeFileSync(join(folder, 'station.log'), `${'x'.repeat(3000)}\n`);
    const sink = createRotatingFileSink({ directory: folder, maxBytes: 4096, maxFiles: 2 });
    sink.write('a'.repeat(500));
    sink.write('b'.repeat(1000));
    sink.close();
    expect(readFileSync(join(folder, 'station.1.log'), 'utf8')).toBe(`${'x'.repeat(3000)}\n${'a'.repeat(500)}\n`);
    expect(readFileSync(join(folder, 'station.log'), 'utf8')).toBe(`${'b'.repeat(1000)}\n`);
  });

  it('never throws when the folder cannot be written, and says so once', () => {
    const folder = tempFolder();
    const blocked = join(folder, 'not-a-folder');
    writeFileSync(blocked, 'a file where the logs folder should be');
    const errors: unknown[] = [];
    const sink = createRotatingFileSink({ directory: blocked, onError: (error) => errors.push(error) });
    expect(() => {
      sink.write('one');
      sink.write('two');
    }).not.toThrow();
    expect(errors).toHaveLength(1);
  });
});

describe('secrets in the log files', () => {
  const key = 'sk_live_9f8e7d6c5b4a39281706';
  const unknownKey = 'sandbox-key-0123456789abcdef';

  it('the API key and every api-key header value never reach a line, before or after rotation', () => {
    const folder = tempFolder();
    const sink = createRotatingFileSink({ directory: folder, maxBytes: 2048, maxFiles: 4 });
    const logger = createLogger(sink.write, { level: 'debug' });
    logger.addSecret(key);

    for (let round = 0; round < 30; round += 1) {
      // The ways a key could slip into a line: headers as an object, as undici's raw list and as
      // a Headers instance, an error message, a URL, a request dumped as JSON, a bare mention.
      logger.info('request', { method: 'GET', url: `https://api.example.com/labels/1?round=${round}`, headers: { 'api-key': key, accept: 'application/json' } });
      logger.debug('raw request', { rawHeaders: ['accept', 'application/json', 'api-key', unknownKey, 'Api-Key', key] });
      logger.debug('fetch headers', { headers: new Headers({ 'api-key': unknownKey, 'content-type': 'application/json' }) });
      logger.warn(`request failed: header api-key: ${unknownKey} was rejected`);
      logger.error('call failed', { error: new Error(`401 for key ${key}`), config: { apiKey: unknownKey, api_key: unknownKey } });
      logger.info('retry', { body: JSON.stringify({ 'api-key': unknownKey, orderRef: `REF-${round}` }) });
      logger.info(`key set to ${key}`);
      logger.info('query', { url: `https://api.example.com/orders?api_key=${unknownKey}&page=${round}` });
    }
    sink.close();

    const files = readdirSync(folder);
    expect(files.length).toBeGreaterThan(2); // rotated several times
    const lines = readAllLines(folder);
    expect(lines.length).toBeGreaterThan(30);
    for (const line of lines) {
      expect(line).not.toContain(key);
      expect(line).not.toContain(unknownKey);
      expect(line).not.toContain(key.slice(0, 16));
      expect(() => JSON.parse(line)).not.toThrow();
    }
    const text = lines.join('\n');
    // The lines are still useful: the rest of each request is there, the secret marked as removed.
    expect(text).toContain('"api-key":"[redacted]"');
    expect(text).toContain('application/json');
    expect(text).toContain('api-key: [redacted]');
    expect(text).toContain('REF-29');
  });
});
