import { describe, expect, it } from 'vitest';
import { isHostStatusComplete, parseHostStatus, scanFrames, ZebraReplyError } from '../../../src/shared/zebra';
import { hostStatusReply } from '../../../src/sandbox/printer/status-replies';

// ~HS answers in the layout of the ZPL II Programming Guide: three STX…ETX strings with CR LF.
const READY =
  '\x02030,0,0,1245,000,0,0,0,000,0,0,0\x03\r\n' + '\x02001,0,0,0,1,2,6,0,00000000,1,000\x03\r\n' + '\x021234,0\x03\r\n';
const PAPER_OUT_PAUSED_3_WAITING =
  '\x02030,1,1,1184,003,0,0,0,000,0,0,0\x03\r\n' + '\x02001,0,0,0,1,2,6,0,00000002,1,000\x03\r\n' + '\x021234,0\x03\r\n';
const HEAD_OPEN_RIBBON_OUT_BUFFER_FULL =
  '\x02030,0,0,1184,012,1,0,1,000,0,0,1\x03\r\n' + '\x02001,0,1,1,1,3,6,0,00000010,1,002\x03\r\n' + '\x021234,0\x03\r\n';

describe('~HS host status', () => {
  it('reads a ready printer', () => {
    expect(parseHostStatus(READY)).toEqual({
      paperOut: false,
      paused: false,
      labelLengthDots: 1245,
      formatsInBuffer: 0,
      bufferFull: false,
      diagnosticMode: false,
      partialFormat: false,
      corruptRam: false,
      underTemperature: false,
      overTemperature: false,
      headOpen: false,
      ribbonOut: false,
      thermalTransfer: true,
      printMode: 'tear-off',
      labelWaiting: false,
      labelsRemainingInBatch: 0,
      graphicsStored: 0,
    });
  });

  it('reads paper out, pause and the formats waiting', () => {
    const status = parseHostStatus(PAPER_OUT_PAUSED_3_WAITING);
    expect(status).toMatchObject({ paperOut: true, paused: true, formatsInBuffer: 3, labelsRemainingInBatch: 2, headOpen: false });
  });

  it('reads head open, ribbon out, a full buffer, a partial format and over temperature', () => {
    expect(parseHostStatus(HEAD_OPEN_RIBBON_OUT_BUFFER_FULL)).toMatchObject({
      headOpen: true,
      ribbonOut: true,
      bufferFull: true,
      partialFormat: true,
      overTemperature: true,
      formatsInBuffer: 12,
      printMode: 'cutter',
      labelsRemainingInBatch: 10,
      graphicsStored: 2,
    });
  });

  it('reads the virtual Zebra’s answer the same way', () => {
    const reply = hostStatusReply({
      paperOut: true,
      paused: false,
      headOpen: true,
      ribbonOut: false,
      labelLengthDots: 1184,
      formatsInBuffer: 7,
      bufferFull: false,
      partialFormat: true,
      labelsRemainingInBatch: 1,
      thermalTransfer: false,
      headTooHot: false,
      headTooCold: false,
      headElementBad: false,
    });
    expect(parseHostStatus(reply)).toMatchObject({ paperOut: true, headOpen: true, formatsInBuffer: 7, partialFormat: true, thermalTransfer: false });
  });

  it('reads by frame, not by offset: answers split at any byte give the same status', () => {
    const expected = parseHostStatus(PAPER_OUT_PAUSED_3_WAITING);
    const lastEtx = PAPER_OUT_PAUSED_3_WAITING.lastIndexOf('\x03');
    for (let cut = 1; cut < PAPER_OUT_PAUSED_3_WAITING.length; cut += 1) {
      const first = PAPER_OUT_PAUSED_3_WAITING.slice(0, cut);
      expect(isHostStatusComplete(first)).toBe(cut > lastEtx);
      expect(parseHostStatus(first + PAPER_OUT_PAUSED_3_WAITING.slice(cut))).toEqual(expected);
    }
  });

  it('ignores noise between and before frames, and the tail of a cut-off earlier answer', () => {
    const noisy = `\r\n030,0,0\x03garbage\x02030,1,1,${PAPER_OUT_PAUSED_3_WAITING.slice(9)}`;
    expect(parseHostStatus(`junk\r\n${PAPER_OUT_PAUSED_3_WAITING}`)).toEqual(parseHostStatus(PAPER_OUT_PAUSED_3_WAITING));
    expect(parseHostStatus(noisy)).toEqual(parseHostStatus(PAPER_OUT_PAUSED_3_WAITING));
    expect(parseHostStatus(`\x02030,0,0,12${PAPER_OUT_PAUSED_3_WAITING}`)).toEqual(parseHostStatus(PAPER_OUT_PAUSED_3_WAITING));
  });

  it('accepts padded fields and extra trailing fields from newer firmware', () => {
    const padded =
      '\x02030, 1 ,0,1184,001,0,0,0,000,0,0,0,9,9\x03\r\n' + '\x02001,0,0,0,1,2,6,0,00000000,1,000,5\x03\r\n' + '\x021234,0,1\x03\r\n';
    expect(parseHostStatus(padded)).toMatchObject({ paperOut: true, formatsInBuffer: 1 });
  });

  it('rejects garbage with a clear reason', () => {
    expect(() => parseHostStatus('')).toThrow(ZebraReplyError);
    expect(() => parseHostStatus('')).toThrow('expected 3 framed strings, got 0');
    expect(() => parseHostStatus(READY.slice(0, READY.lastIndexOf('\x02')))).toThrow('got 2');
    expect(() => parseHostStatus(READY.replace('030,0,0,1245', '030,X,0,1245'))).toThrow('paper out (string 1, field b) is "X", expected 0 or 1');
    expect(() => parseHostStatus(READY.replace('1245,000', '1245,0A0'))).toThrow('formats in buffer');
    expect(() => parseHostStatus(READY.replace(',0,0,0\x03', '\x03'))).toThrow('string 1 has 9 fields, expected 12');
    expect(() => parseHostStatus('\x02\x03\x02\x03\x02\x03')).toThrow('string 1 has 1 fields');
  });

  it('quotes the answer printably in the error', () => {
    try {
      parseHostStatus('\x02bad\x03\r\n');
      expect.unreachable();
    } catch (error) {
      expect((error as ZebraReplyError).excerpt).toBe('<STX>bad<ETX>\\r\\n');
    }
  });
});

describe('framing', () => {
  it('keeps an open frame as the rest', () => {
    expect(scanFrames('\x02a\x03\r\n\x02b')).toEqual({ frames: ['a'], rest: '\x02b' });
    expect(scanFrames('no frames at all')).toEqual({ frames: [], rest: '' });
    expect(scanFrames('\x03\x02x\x03')).toEqual({ frames: ['x'], rest: '' });
  });
});
