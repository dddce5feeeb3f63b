import { describe, expect, it } from 'vitest';
import { defaultSerial, formatUptime, printerIdentityPatchSchema } from '../../../src/sandbox/printer/printer-identity';

describe('device.uptime format', () => {
  it('writes days unpadded and hours, minutes and seconds as two digits', () => {
    expect(formatUptime(0)).toBe('0 days 00 hours 00 mins 00 secs');
    expect(formatUptime(127_999)).toBe('0 days 00 hours 02 mins 07 secs');
    expect(formatUptime(((12 * 24 + 23) * 3600 + 59 * 60 + 59) * 1000)).toBe('12 days 23 hours 59 mins 59 secs');
  });
});

describe('default serial number', () => {
  it('is "VZ" and ten digits, the same for the same name and different for another name or printer', () => {
    const first = defaultSerial('Bench 1');
    expect(first).toMatch(/^VZ\d{10}$/);
    expect(defaultSerial('Bench 1')).toBe(first);
    expect(defaultSerial('Bench 2')).not.toBe(first);
    expect(defaultSerial('Bench 1', 1)).not.toBe(first);
  });
});

describe('identity of a replacement printer', () => {
  it('accepts model, dpi, width, serial and counter and rejects anything else', () => {
    expect(printerIdentityPatchSchema.parse({ dpi: 300, serial: 'XXQ1', odometerStart: 5 })).toEqual({ dpi: 300, serial: 'XXQ1', odometerStart: 5 });
    expect(() => printerIdentityPatchSchema.parse({ dpi: 299.5 })).toThrow();
    expect(() => printerIdentityPatchSchema.parse({ model: 'ZT,411' })).toThrow();
    expect(() => printerIdentityPatchSchema.parse({ colour: 'red' })).toThrow();
  });
});
