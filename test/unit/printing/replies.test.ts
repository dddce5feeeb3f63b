import { describe, expect, it } from 'vitest';
import {
  describeQuery,
  getvarQuery,
  hostStatusQuery,
  isQueryAnswered,
  parseExtendedStatus,
  parseHostIdentification,
  parseSgdReply,
  queryCommand,
  sgdGetvarCommand,
  ZebraReplyError,
} from '../../../src/shared/zebra';
import { extendedStatusReply } from '../../../src/sandbox/printer/status-replies';

const hqes = (errors: string, warnings = '0 00000000 00000000'): string =>
  `\x02\r\n\r\n  PRINTER STATUS                            \r\n   ERRORS:         ${errors}\r\n   WARNINGS:       ${warnings}\r\n\x03\r\n`;

describe('~HQES extended status', () => {
  it('reads a printer without errors', () => {
    const status = parseExtendedStatus(hqes('0 00000000 00000000'));
    expect(status.errors).toEqual({ present: false, group1: 0, group2: 0, flags: [], otherBits: 0 });
    expect(status.warnings.flags).toEqual([]);
  });

  it('reads media out, head open and a cutter fault from one group', () => {
    expect(parseExtendedStatus(hqes('1 00000000 0000000D')).errors.flags).toEqual(['media-out', 'head-open', 'cutter-fault']);
  });

  it('reads the higher error bits and keeps unnamed bits', () => {
    const status = parseExtendedStatus(hqes('1 00000000 80084200'));
    expect(status.errors.flags).toEqual(['printhead-thermistor-open', 'paper-feed-error', 'black-mark-not-found']);
    expect(status.errors.otherBits).toBe(0x80000000);
  });

  it('reads warnings', () => {
    const status = parseExtendedStatus(hqes('0 00000000 00000000', '1 00000000 0000000A'));
    expect(status.warnings).toMatchObject({ present: true, flags: ['clean-printhead', 'paper-near-end'] });
  });

  it('reads the virtual Zebra’s answer', () => {
    const reply = extendedStatusReply({
      paperOut: true,
      paused: false,
      headOpen: false,
      ribbonOut: true,
      labelLengthDots: 1184,
      formatsInBuffer: 0,
      bufferFull: false,
      partialFormat: false,
      labelsRemainingInBatch: 0,
      thermalTransfer: true,
      headTooHot: false,
      headTooCold: false,
      headElementBad: false,
    });
    expect(parseExtendedStatus(reply).errors.flags).toEqual(['media-out', 'ribbon-out']);
  });

  it('is complete only when its frame is closed', () => {
    const reply = hqes('1 00000000 00000001');
    expect(isQueryAnswered({ kind: 'extended-status' }, reply.slice(0, 40))).toBe(false);
    expect(isQueryAnswered({ kind: 'extended-status' }, reply)).toBe(true);
  });

  it('rejects garbage', () => {
    expect(() => parseExtendedStatus('ERRORS: 1 00000000 00000001')).toThrow('no framed block');
    expect(() => parseExtendedStatus('\x02PRINTER STATUS\x03')).toThrow('no ERRORS line');
    expect(() => parseExtendedStatus(hqes('1 0000 1'))).toThrow(ZebraReplyError);
    expect(() => parseExtendedStatus('\x02 ERRORS: 1 00000000 00000001\x03')).toThrow('the WARNINGS line is missing or malformed');
  });
});

describe('~HI identification', () => {
  it('reads model, firmware, resolution and memory', () => {
    expect(parseHostIdentification('\x02ZD421-203dpi,V84.20.18Z,8,8176KB\x03\r\n')).toEqual({
      model: 'ZD421-203dpi',
      firmware: 'V84.20.18Z',
      dotsPerMm: 8,
      dpi: 203,
      memory: '8176KB',
      options: [],
    });
  });

  it('maps dots per millimetre to Zebra’s nominal dpi and keeps option fields', () => {
    expect(parseHostIdentification('\x02ZT410-300dpi,V75.19.15Z,12,8176KB,RTC\x03').dpi).toBe(300);
    expect(parseHostIdentification('\x02ZT410-300dpi,V75.19.15Z,12,8176KB,RTC\x03').options).toEqual(['RTC']);
    expect(parseHostIdentification('\x02ZT610-600dpi,V75.20.01Z,24,8192KB\x03').dpi).toBe(600);
    expect(parseHostIdentification('\x02LP2844-Z,V45.11.7Z,6,512KB\x03').dpi).toBe(152);
  });

  it('rejects garbage', () => {
    expect(() => parseHostIdentification('ZD421,V84,8,8176KB')).toThrow('no framed string');
    expect(() => parseHostIdentification('\x02ZD421,V84\x03')).toThrow('2 fields, expected at least 4');
    expect(() => parseHostIdentification('\x02ZD421,V84,eight,8176KB\x03')).toThrow('dots per millimetre is "eight"');
    expect(() => parseHostIdentification('\x02,V84,8,8176KB\x03')).toThrow('the model is empty');
  });
});

describe('SGD getvar', () => {
  it('builds the command and refuses names that could break it', () => {
    expect(sgdGetvarCommand('head.resolution.in_dpi')).toBe('! U1 getvar "head.resolution.in_dpi"\r\n');
    expect(() => sgdGetvarCommand('a" "b')).toThrow(RangeError);
    expect(() => sgdGetvarCommand('x\r\n^XA')).toThrow(RangeError);
  });

  it('reads the quoted value; "?" means the printer does not know the variable', () => {
    expect(parseSgdReply('ezpl.print_width', '"832"')).toBe('832');
    expect(parseSgdReply('device.languages', '\r\n"hybrid_xml_zpl"')).toBe('hybrid_xml_zpl');
    expect(parseSgdReply('nope', '"?"')).toBeNull();
    expect(() => parseSgdReply('x', '"83')).toThrow('no quoted value');
  });

  it('is complete only when the closing quote has arrived', () => {
    const query = getvarQuery('ezpl.print_width');
    expect(isQueryAnswered(query, '"83')).toBe(false);
    expect(isQueryAnswered(query, '"832"')).toBe(true);
  });
});

describe('queries', () => {
  it('sends the documented commands', () => {
    expect(queryCommand(hostStatusQuery)).toBe('~HS');
    expect(queryCommand({ kind: 'extended-status' })).toBe('~HQES');
    expect(queryCommand({ kind: 'identification' })).toBe('~HI');
    expect(describeQuery(getvarQuery('device.languages'))).toBe('getvar device.languages');
  });
});
