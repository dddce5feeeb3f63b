/**
 * What a Zebra (or anything answering on port 9100) can say back: ~HS, ~HQES, ~HI and SGD answers.
 * Each parser either reads an answer or refuses it with its coded error (ZebraReplyError), for
 * any text, within milliseconds; an answer written as the ZPL guide lays it out reads back to the
 * values it was written from (a round trip), however the bytes arrive; and the station's status and
 * identity readers, over a real socket to a "printer" that answers anything, end with a report or a
 * PRINTER_* error, never anything else.
 */
import fc from 'fast-check';
import { once } from 'node:events';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { readPrinterIdentity, readPrinterStatus } from '../../src/main/printing/status';
import { readPrinterFingerprint, readPrintWidth } from '../../src/main/printing/status/printer-identity';
import { createNetworkZebraTransport } from '../../src/main/printing/transports/network-zebra';
import { StationError } from '../../src/shared/errors';
import {
  errorFlagBits,
  ETX,
  isExtendedStatusComplete,
  isHostStatusComplete,
  parseExtendedStatus,
  parseHostIdentification,
  parseHostStatus,
  parseSgdReply,
  STX,
  ZebraReplyError,
} from '../../src/shared/zebra';
import { parseLabelCount, parseUptimeSeconds } from '../../src/shared/zebra/sgd';
import { fuzz, timed, quickMs } from './budget';

/** Text a printer port can send: framing bytes, digits, commas, quotes, line ends and anything else. */
const replyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 400 }),
  fc.string({ unit: fc.constantFrom(STX, ETX, ',', '"', '?', '0', '1', '9', 'A', 'F', ' ', '\r', '\n', 'ERRORS:', 'WARNINGS:'), maxLength: 200 }),
);

/** Cuts text into pieces at the given points, as TCP may deliver it. */
const pieces = (text: string, cuts: readonly number[]) => {
  const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  return [...points, text.length].map((end, index) => text.slice(index === 0 ? 0 : points[index - 1], end));
};

const bit = fc.constantFrom('0', '1');
const hostStatusFields = fc.record({
  paperOut: bit, paused: bit, labelLength: fc.integer({ min: 0, max: 9999 }), formats: fc.integer({ min: 0, max: 999 }),
  bufferFull: bit, diagnostic: bit, partial: bit, corruptRam: bit, under: bit, over: bit,
  headOpen: bit, ribbonOut: bit, thermal: bit, mode: fc.constantFrom('0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'K', 'Z'),
  waiting: bit, remaining: fc.integer({ min: 0, max: 99_999_999 }), graphics: fc.integer({ min: 0, max: 999 }),
});

describe('printer replies (fuzzed)', () => {
  it('every parser reads an answer or refuses it as a ZebraReplyError, for any text, within 250 ms', () => {
    const parsers = [parseHostStatus, parseExtendedStatus, parseHostIdentification, (text: string) => parseSgdReply('device.unique_id', text)];
    fc.assert(
      fc.property(replyText, fc.integer({ min: 0, max: 3 }), (text, which) => {
        const { ms } = timed(() => {
          try {
            parsers[which]!(text);
          } catch (error) {
            expect(error).toBeInstanceOf(ZebraReplyError);
            expect((error as ZebraReplyError).excerpt.length).toBeLessThanOrEqual(200);
          }
        });
        expect(ms).toBeLessThan(quickMs);
        expect(parseUptimeSeconds(text) === null || Number.isSafeInteger(parseUptimeSeconds(text))).toBe(true);
        const count = parseLabelCount(text);
        expect(count === null || (Number.isSafeInteger(count) && count >= 0)).toBe(true);
      }),
      fuzz(4000),
    );
  });

  it('reads back a ~HS answer as written, after noise, in whatever pieces it arrives, and only once it is whole', () => {
    fc.assert(
      fc.property(hostStatusFields, fc.string({ unit: fc.constantFrom('\r', '\n', ' ', 'x', ETX), maxLength: 5 }), fc.array(fc.nat(), { maxLength: 6 }), (f, noise, cuts) => {
        const pad = (value: number, width: number) => String(value).padStart(width, '0');
        const reply = `${noise}${STX}030,${f.paperOut},${f.paused},${pad(f.labelLength, 4)},${pad(f.formats, 3)},${f.bufferFull},${f.diagnostic},${f.partial},000,${f.corruptRam},${f.under},${f.over}${ETX}\r\n`
          + `${STX}000,0,${f.headOpen},${f.ribbonOut},${f.thermal},${f.mode},0,${f.waiting},${pad(f.remaining, 8)},1,${pad(f.graphics, 3)}${ETX}\r\n${STX}1234,0${ETX}\r\n`;
        // Whole only with its third frame's ETX: half an answer is never read as a whole one.
        const wholeAt = reply.lastIndexOf(ETX) + 1;
        let received = '';
        for (const piece of pieces(reply, cuts)) {
          received += piece;
          expect(isHostStatusComplete(received)).toBe(received.length >= wholeAt);
        }
        expect(parseHostStatus(received)).toMatchObject({
          paperOut: f.paperOut === '1', paused: f.paused === '1', labelLengthDots: f.labelLength, formatsInBuffer: f.formats, bufferFull: f.bufferFull === '1',
          headOpen: f.headOpen === '1', ribbonOut: f.ribbonOut === '1', thermalTransfer: f.thermal === '1', labelWaiting: f.waiting === '1',
          labelsRemainingInBatch: f.remaining, graphicsStored: f.graphics, printMode: f.mode === 'Z' ? 'other' : expect.any(String),
        });
      }),
      fuzz(1500),
    );
  });

  it('reads back the flags of a ~HQES answer as written: named flags, and the bits the guide does not name', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 0, max: 0xf }), (group1, group2, warnings) => {
        const hex = (value: number) => value.toString(16).toUpperCase().padStart(8, '0');
        const reply = `${STX}\r\n\r\n  PRINTER STATUS\r\n   ERRORS:         ${group1 === 0 ? 0 : 1} ${hex(group2)} ${hex(group1)}\r\n   WARNINGS:       ${warnings === 0 ? 0 : 1} 00000000 ${hex(warnings)}\r\n${ETX}`;
        expect(isExtendedStatusComplete(reply)).toBe(true);
        const status = parseExtendedStatus(reply);
        const named = Object.entries(errorFlagBits).filter(([, flagBit]) => Math.floor(group1 / flagBit) % 2 === 1).map(([flag]) => flag);
        expect(status.errors).toMatchObject({ present: group1 !== 0, group1, group2, flags: named });
        const namedBits = Object.values(errorFlagBits).reduce((sum, flagBit) => sum + (Math.floor(group1 / flagBit) % 2 === 1 ? flagBit : 0), 0);
        expect(status.errors.otherBits + namedBits).toBe(group1);
        expect(status.warnings.group1).toBe(warnings);
      }),
      fuzz(1500),
    );
  });

  it('reads back ~HI and SGD answers as written', () => {
    const field = fc.string({ unit: fc.constantFrom(...'ABCZD0123456789-.V '), minLength: 1, maxLength: 16 }).filter((text) => text.trim() !== '');
    fc.assert(
      fc.property(field, field, fc.integer({ min: 1, max: 999 }), field, fc.string({ unit: 'grapheme', maxLength: 40 }).filter((text) => !text.includes('"')), (model, firmware, dots, memory, value) => {
        const identification = parseHostIdentification(`${STX}${model},${firmware},${dots},${memory}${ETX}\r\n`);
        expect(identification).toMatchObject({ model: model.trim(), firmware: firmware.trim(), dotsPerMm: dots, memory: memory.trim() });
        expect(parseSgdReply('device.unique_id', `"${value}"`)).toBe(value.trim() === '?' ? null : value.trim());
      }),
      fuzz(1500),
    );
  });

  it('the status and identity readers, over a socket to a port that answers anything, end in a report or a PRINTER_* error', async () => {
    // A "printer" that answers each question with the next reply the property chose, cut into pieces.
    let replies: string[] = [];
    const sockets = new Set<Socket>();
    const server = createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
      socket.on('data', () => {
        const reply = replies.shift();
        if (reply !== undefined && reply !== '') socket.write(Buffer.from(reply, 'latin1'));
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    const transport = createNetworkZebraTransport({ host: '127.0.0.1', port, queryTimeoutMs: 100, connectTimeoutMs: 1000, idleCloseMs: 60_000 });
    const readers = [
      () => readPrinterStatus(transport),
      () => readPrinterIdentity(transport),
      () => readPrinterFingerprint(transport),
      () => readPrintWidth(transport),
    ];
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.oneof(replyText, fc.constant(`${STX}ZD421-203dpi,V84.20.18Z,8,8176KB${ETX}`), fc.constant('"12345"')), { minLength: 1, maxLength: 6 }), fc.integer({ min: 0, max: 3 }), async (answers, which) => {
          replies = [...answers];
          try {
            const report = await readers[which]!();
            expect(report).toBeTypeOf(which === 3 ? (report === null ? 'object' : 'number') : 'object');
          } catch (error) {
            expect(error).toBeInstanceOf(StationError);
            expect((error as StationError).code).toMatch(/^PRINTER_|^PAPER_OUT$|^HEAD_OPEN$|^RIBBON_OUT$/);
          }
        }),
        fuzz(25),
      );
    } finally {
      await transport.close();
      for (const socket of sockets) socket.destroy();
      server.close();
    }
  });
});
