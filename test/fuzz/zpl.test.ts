/**
 * ZPL as carriers send it (the labels in test/fixtures/zpl), cut short, mutated, or made of any
 * bytes: the station's gate (scanZpl, prepareZplForPrinter, the preview's text) answers every
 * document with a reading or a refusal of a known kind, never an exception, within milliseconds;
 * and the virtual Zebra's stream reader, which shares the gate's lexical rules, reads every label
 * the same whether its bytes arrive whole, cut at any one byte, one byte at a time, or in any
 * pieces (a round trip through TCP's packet boundaries).
 */
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ZplStreamParser, type ParserEvent } from '../../src/sandbox/printer/zpl-stream-parser';
import { prepareZplForPrinter } from '../../src/shared/zebra/zpl-prepare';
import { zplTextForRenderer } from '../../src/shared/zebra/zpl-preview-text';
import { scanZpl } from '../../src/shared/zebra/zpl-scanner';
import { fuzz, timed, quickMs } from './budget';

const folder = join(import.meta.dirname, '..', 'fixtures', 'zpl');
const fixtures = [...readdirSync(folder).filter((name) => name.endsWith('.zpl')).map((name) => join(folder, name)), ...readdirSync(join(folder, 'refused')).map((name) => join(folder, 'refused', name))].map((path) => ({
  name: path.slice(folder.length + 1),
  bytes: new Uint8Array(readFileSync(path)),
}));

/** Every event the reader gives for `chunks`, fed as the virtual Zebra feeds its socket's bytes (unread bytes wait for the next chunk). */
function read(chunks: readonly Uint8Array[]): string[] {
  const parser = new ZplStreamParser({ maxFormatBytes: 1024 * 1024 });
  const seen: ParserEvent[] = [];
  let pending = Buffer.alloc(0);
  for (const chunk of chunks) {
    pending = Buffer.concat([pending, chunk]);
    while (pending.length > 0) {
      const { consumed, events } = parser.feed(pending);
      seen.push(...events);
      pending = pending.subarray(consumed);
      if (consumed === 0) break;
    }
  }
  return seen.map((event) => JSON.stringify(event, (_key, value: unknown) => (value instanceof Uint8Array || (value as { type?: string })?.type === 'Buffer' ? Buffer.from(value as Uint8Array).toString('hex') : value)));
}

const cutAt = (bytes: Uint8Array, points: readonly number[]): Uint8Array[] => {
  const sorted = [...new Set(points.map((point) => point % (bytes.length + 1)))].sort((a, b) => a - b);
  return [...sorted, bytes.length].map((end, index) => bytes.subarray(index === 0 ? 0 : sorted[index - 1], end));
};

/** The gate's answer is a reading or a refusal of a known kind, and never throws. */
function expectGateAnswers(bytes: Uint8Array): void {
  const scan = scanZpl(bytes);
  if (!scan.ok) expect(scan.at).toBeGreaterThanOrEqual(0);
  const prepared = prepareZplForPrinter(bytes);
  if (prepared.ok) {
    expect(prepared.bytes.length).toBeLessThanOrEqual(bytes.length);
    expect(prepared.labels).toBeGreaterThanOrEqual(0);
  } else {
    expect(['not-zpl', 'changes-printer']).toContain(prepared.kind);
    expect(prepared.reason.length).toBeGreaterThan(0);
  }
  expect(typeof zplTextForRenderer(bytes)).toBe('string');
}

const mutation = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), bytes: fc.uint8Array({ maxLength: 8 }) }),
  fc.record({ kind: fc.constant('insert-text' as const), at: fc.nat(), text: fc.constantFrom('^XA', '^XZ', '~HS', '^CC~', '^CT^', '^CD;', '^GFB,10,10,1,', '~DYR:X,B,P,5,0,', '! U1 setvar "a" "b"\r\n', '{}{"a":{"b":[', '^FD', '^FS', '~JA', '^JUS', '\x00') }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 16 }) }),
);
type Mutation = typeof mutation extends fc.Arbitrary<infer T> ? T : never;
function mutate(bytes: Uint8Array, changes: readonly Mutation[]): Uint8Array {
  let out = Array.from(bytes);
  for (const change of changes) {
    const at = change.at % (out.length + 1);
    if (change.kind === 'set' && out.length > 0) out[at % out.length] = change.byte;
    else if (change.kind === 'insert') out.splice(at, 0, ...change.bytes);
    else if (change.kind === 'insert-text') out.splice(at, 0, ...Buffer.from(change.text, 'latin1'));
    else if (change.kind === 'delete') out = [...out.slice(0, at), ...out.slice(at + change.length)];
  }
  return Uint8Array.from(out);
}

describe('ZPL (fuzzed)', () => {
  it('the stream reader reads every carrier label the same when it is cut at any one byte, or arrives one byte at a time', () => {
    for (const { name, bytes } of fixtures) {
      const whole = read([bytes]);
      expect(whole.length, name).toBeGreaterThan(0);
      for (let at = 0; at <= bytes.length; at += 1) expect(read([bytes.subarray(0, at), bytes.subarray(at)]), `${name} cut at ${at}`).toEqual(whole);
      expect(read(Array.from(bytes, (byte) => Uint8Array.of(byte))), `${name} byte by byte`).toEqual(whole);
    }
  });

  it('the gate answers every carrier label cut short at any byte', () => {
    for (const { bytes } of fixtures) for (let at = 0; at <= bytes.length; at += 1) expectGateAnswers(bytes.subarray(0, at));
  });

  it('the stream reader reads labels in any pieces as it reads them whole, several labels on one connection', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...fixtures), { minLength: 1, maxLength: 3 }), fc.array(fc.nat(), { maxLength: 12 }), (chosen, points) => {
        const stream = Buffer.concat(chosen.map((fixture) => fixture.bytes));
        expect(read(cutAt(stream, points))).toEqual(read([stream]));
      }),
      fuzz(800),
    );
  });

  it('the gate answers mutated labels and any bytes with a reading or a refusal, within 250 ms', () => {
    fc.assert(
      fc.property(fc.oneof(fc.constantFrom(...fixtures).chain((fixture) => fc.array(mutation, { minLength: 1, maxLength: 6 }).map((changes) => mutate(fixture.bytes, changes))), fc.uint8Array({ maxLength: 600 })), (bytes) => {
        const { ms } = timed(() => expectGateAnswers(bytes));
        expect(ms).toBeLessThan(quickMs);
        // The stream reader takes the same bytes in any pieces without throwing.
        read(cutAt(bytes, [7, 31, 101]));
      }),
      fuzz(1500),
    );
  });

  it('the gate reads hostile ZPL (a prefix storm, a megabyte field, a huge binary count) in time linear in its size', () => {
    const hostile = ['^'.repeat(1 << 18), `^XA^FD${'A'.repeat(1 << 20)}`, `^XA^GFB,99999999,99999999,1,${'\u00ff'.repeat(1 << 20)}^XZ`, `^XA${'^CC^'.repeat(1 << 16)}^XZ`, `${'~HS'.repeat(1 << 16)}`];
    for (const text of hostile) {
      const bytes = Buffer.from(text, 'latin1');
      // About a quarter of a second for 256 KiB of one-byte commands here; anything worse than linear would take minutes.
      const { ms } = timed(() => expectGateAnswers(bytes), 2500);
      expect(ms).toBeLessThan(2500);
    }
  });
});
