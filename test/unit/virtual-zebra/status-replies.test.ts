import { describe, expect, it } from 'vitest';
import {
  extendedStatusReply,
  hostStatusReply,
  identificationReply,
  type StatusSnapshot,
} from '../../../src/sandbox/printer/status-replies';
import { SgdVariables } from '../../../src/sandbox/printer/sgd-variables';

const healthy: StatusSnapshot = {
  paperOut: false,
  paused: false,
  headOpen: false,
  ribbonOut: false,
  labelLengthDots: 1184,
  formatsInBuffer: 0,
  bufferFull: false,
  partialFormat: false,
  labelsRemainingInBatch: 0,
  thermalTransfer: true,
  headTooHot: false,
  headTooCold: false,
  headElementBad: false,
};

describe('~HS reply', () => {
  it('is three STX…ETX CR LF strings in the documented field order', () => {
    const reply = hostStatusReply({
      ...healthy,
      paperOut: true,
      paused: true,
      formatsInBuffer: 7,
      bufferFull: true,
      partialFormat: true,
      headOpen: true,
      labelsRemainingInBatch: 3,
    });
    expect(reply).toBe(
      '\x02030,1,1,1184,007,1,0,1,000,0,0,0\x03\r\n' + '\x02001,0,1,0,1,2,6,0,00000003,1,000\x03\r\n' + '\x021234,0\x03\r\n',
    );
  });

  it('reports a healthy, empty printer with zero flags', () => {
    const [string1, string2] = hostStatusReply(healthy).split('\r\n');
    const fields1 = string1?.slice(1, -1).split(',');
    const fields2 = string2?.slice(1, -1).split(',');
    expect(fields1).toHaveLength(12);
    expect(fields2).toHaveLength(11);
    expect(fields1?.slice(1, 3)).toEqual(['0', '0']);
    expect(fields2?.slice(2, 4)).toEqual(['0', '0']);
  });

  it('reports a printhead too cold in k and too hot in l of string 1', () => {
    const [string1] = hostStatusReply({ ...healthy, headTooCold: true }).split('\r\n');
    expect(string1?.slice(1, -1).split(',').slice(10)).toEqual(['1', '0']);
    const [hot] = hostStatusReply({ ...healthy, headTooHot: true }).split('\r\n');
    expect(hot?.slice(1, -1).split(',').slice(10)).toEqual(['0', '1']);
  });
});

describe('~HQES reply', () => {
  it('sets the media out, ribbon out and head open bits of the error group', () => {
    const reply = extendedStatusReply({ ...healthy, paperOut: true, headOpen: true });
    expect(reply.startsWith('\x02\r\n\r\n  PRINTER STATUS\r\n')).toBe(true);
    expect(reply.endsWith('\x03')).toBe(true);
    expect(reply).toMatch(/ERRORS:\s+1 00000000 00000005\r\n/);
    expect(reply).toMatch(/WARNINGS:\s+0 00000000 00000000\r\n/);
    expect(extendedStatusReply({ ...healthy, ribbonOut: true })).toMatch(/ERRORS:\s+1 00000000 00000002/);
    expect(extendedStatusReply(healthy)).toMatch(/ERRORS:\s+0 00000000 00000000/);
    // Head faults (the guide's error flag table): printhead over temperature 0x10, bad printhead element 0x40.
    expect(extendedStatusReply({ ...healthy, headTooHot: true, headElementBad: true })).toMatch(/ERRORS:\s+1 00000000 00000050/);
  });
});

describe('~HI reply', () => {
  it('gives model, firmware, dots per millimetre and memory', () => {
    expect(identificationReply({ model: 'ZD421-203dpi', firmware: 'V84.20.18Z', dpi: 203, memoryKb: 8176 })).toBe(
      '\x02ZD421-203dpi,V84.20.18Z,8,8176KB\x03\r\n',
    );
    expect(identificationReply({ model: 'ZT411-300dpi', firmware: 'V92.21.39Z', dpi: 300, memoryKb: 8176 })).toContain(',12,');
  });
});

describe('SGD variables', () => {
  const context = {
    status: healthy,
    model: 'ZD421-203dpi',
    firmware: 'V84.20.18Z',
    dpi: 203,
    printWidthDots: 832,
    friendlyName: 'Bench 1',
    serial: 'D8J224512345',
    odometer: 1234,
    uptimeMs: 127_400,
    settings: { darkness: 15, relativeDarkness: 0, labelLengthDots: 1184, speedIps: 4, printMethod: 'thermal transfer' as const, mediaTracking: 'gap' as const },
    reprintAfterError: true,
    media: { totalDots: 203 * 2000, headCleanDots: 203 * 1489, headNewDots: 203 * 1500 },
  };
  const withDarkness = (darkness: number) => ({ ...context, settings: { ...context.settings, darkness } });
  /** Records what a setvar asked the printer to change. */
  const recordingTarget = () => {
    const calls: string[] = [];
    const record = (name: string) => (value?: unknown) => void calls.push(value === undefined ? name : `${name} ${String(value)}`);
    return {
      calls,
      target: {
        setDarkness: record('darkness'),
        setSpeed: record('speed'),
        setPrintMethod: record('method'),
        setMediaTracking: record('tracking'),
        setLabelLength: record('length'),
        setReprintAfterError: record('reprint'),
        resetHeadClean: record('head clean'),
        resetHeadNew: record('head new'),
      },
    };
  };

  it('answers the documented names and "?" for others', () => {
    const sgd = new SgdVariables();
    expect(sgd.get('device.languages', context)).toBe('zpl');
    expect(sgd.get('head.resolution.in_dpi', context)).toBe('203');
    expect(sgd.get('ezpl.print_width', context)).toBe('832');
    expect(sgd.get('media.status', { ...context, status: { ...healthy, paperOut: true } })).toBe('out');
    expect(sgd.get('no.such.thing', context)).toBe('?');
  });

  it('answers the label counter, serial number, uptime and darkness from the printer it is asked of', () => {
    const sgd = new SgdVariables();
    expect(sgd.get('odometer.total_label_count', context)).toBe('1234');
    expect(sgd.get('device.unique_id', context)).toBe('D8J224512345');
    expect(sgd.get('device.uptime', context)).toBe('0 days 00 hours 02 mins 07 secs');
    expect(sgd.get('DEVICE.UPTIME', { ...context, uptimeMs: ((3 * 24 + 4) * 3600 + 5 * 60 + 6) * 1000 })).toBe('3 days 04 hours 05 mins 06 secs');
    expect(sgd.get('print.tone', withDarkness(30))).toBe('30.0');
  });

  it('keeps a setvar of a writable name and ignores read-only ones', () => {
    const sgd = new SgdVariables();
    const { target } = recordingTarget();
    expect(sgd.set('device.friendly_name', 'Bench 9', target)).toBe(true);
    expect(sgd.set('head.resolution.in_dpi', '600', target)).toBe(false);
    expect(sgd.get('device.friendly_name', context)).toBe('Bench 9');
    expect(sgd.get('head.resolution.in_dpi', context)).toBe('203');
  });

  it('reads the settings a ZPL command also changes in the words of the SGD reference', () => {
    const sgd = new SgdVariables();
    expect(sgd.get('media.speed', context)).toBe('4.0');
    expect(sgd.get('ezpl.print_method', context)).toBe('thermal trans');
    expect(sgd.get('ezpl.media_type', { ...context, settings: { ...context.settings, mediaTracking: 'mark' } })).toBe('mark');
    expect(sgd.get('zpl.label_length', context)).toBe('1184');
    expect(sgd.get('ezpl.reprint_mode', { ...context, reprintAfterError: false })).toBe('off');
    expect(sgd.get('odometer.headclean', context)).toBe('1489 INCHES, 3782 CENTIMETERS');
    expect(sgd.get('odometer.total_print_length', context)).toBe('2000 INCHES, 5080 CENTIMETERS');
  });

  it('turns a setvar of a setting into that setting, and ignores values the variable does not take', () => {
    const sgd = new SgdVariables();
    const { calls, target } = recordingTarget();
    expect(sgd.set('print.tone', '22.0', target)).toBe(true);
    expect(sgd.set('ezpl.print_method', 'direct thermal', target)).toBe(true);
    expect(sgd.set('ezpl.media_type', 'continuous', target)).toBe(true);
    expect(sgd.set('ezpl.reprint_mode', 'off', target)).toBe(true);
    expect(sgd.set('odometer.headclean', '0', target)).toBe(true);
    expect(sgd.set('odometer.headclean', '12', target)).toBe(false);
    expect(sgd.set('ezpl.media_type', 'roll', target)).toBe(false);
    expect(calls).toEqual(['darkness 22', 'method direct thermal', 'tracking continuous', 'reprint false', 'head clean']);
  });
});
