import { describe, expect, it } from 'vitest';
import { parseDiscoveryAnswer } from '../../../src/main/printing/discovery/zebra-discovery-packet';
import { contains, parseSubnet, requestTargets } from '../../../src/main/printing/discovery/subnets';

/** An answer laid out field by field as Zebra's Link-OS SDK decodes it (docs/hardware.md). */
function answer(version: number, fields: Record<number, string | number[]>, length: number): Uint8Array {
  const packet = new Uint8Array(length);
  packet.set([0x3a, 0x2c, 0x2e, version]);
  for (const [offset, value] of Object.entries(fields)) packet.set(typeof value === 'string' ? Buffer.from(value, 'latin1') : value, Number(offset));
  return packet;
}

describe('Zebra discovery answers', () => {
  it('version 4 (advanced): system name, product name, firmware, unique id, address, raw port, dots per mm and per row', () => {
    const packet = answer(4, { 13: 'ZBR-PACK-3', 76: 'ZT411-300dpi', 108: 'V92.21.13Z', 188: 'D8J224512345', 332: [10, 0, 4, 31], 344: [0x23, 0x8c], 360: [0, 12], 362: [0x04, 0xcd] }, 421);
    expect(parseDiscoveryAnswer(packet)).toEqual({
      discoveryVersion: 4,
      systemName: 'ZBR-PACK-3',
      model: 'ZT411-300dpi',
      firmware: 'V92.21.13Z',
      serialNumber: 'D8J224512345',
      address: '10.0.4.31',
      port: 9100,
      dpi: 300,
      printWidthDots: 1229,
    });
  });

  it('version 3 (legacy): product name, firmware, serial, address, system name; port 9100, or 6101 for a mobile model', () => {
    const packet = answer(3, { 4: '79071', 12: 'ZM400 200 dpi', 39: 'V53.17.11', 60: '41J084200', 72: [192, 168, 1, 50], 84: 'ZBR3742' }, 375);
    expect(parseDiscoveryAnswer(packet)).toMatchObject({ discoveryVersion: 3, model: 'ZM400 200 dpi', firmware: 'V53.17.11', serialNumber: '41J084200', address: '192.168.1.50', systemName: 'ZBR3742', port: 9100, dpi: null });
    expect(parseDiscoveryAnswer(answer(3, { 12: 'QLn320', 72: [192, 168, 1, 51] }, 375))).toMatchObject({ model: 'QLn320', port: 6101 });
  });

  it('refuses what is not an answer: the request itself, a short answer, another version, an oversized datagram', () => {
    expect(parseDiscoveryAnswer(Uint8Array.from([0x2e, 0x2c, 0x3a, 0x01, 0x00, 0x00]))).toBeNull();
    expect(parseDiscoveryAnswer(answer(4, {}, 300))).toBeNull();
    expect(parseDiscoveryAnswer(answer(3, {}, 200))).toBeNull();
    expect(parseDiscoveryAnswer(answer(5, {}, 500))).toBeNull();
    expect(parseDiscoveryAnswer(answer(4, {}, 4000))).toBeNull();
  });

  it('a field with control characters is unknown, not shown', () => {
    expect(parseDiscoveryAnswer(answer(4, { 76: 'ZT4\u001b[2J', 332: [10, 0, 0, 9] }, 421))).toMatchObject({ model: null, address: '10.0.0.9' });
  });
});

describe('the networks a search asks', () => {
  it('a /24 gets one directed broadcast; a /30 or smaller each of its addresses', () => {
    expect(requestTargets(parseSubnet('192.168.1.77/24'))).toEqual(['192.168.1.255']);
    expect(requestTargets(parseSubnet('127.0.0.1/32'))).toEqual(['127.0.0.1']);
    expect(requestTargets(parseSubnet('10.1.2.4/30'))).toEqual(['10.1.2.4', '10.1.2.5', '10.1.2.6', '10.1.2.7']);
  });

  it('answers count only from inside the network', () => {
    const subnet = parseSubnet('192.168.1.0/24');
    expect(contains(subnet, '192.168.1.200')).toBe(true);
    expect(contains(subnet, '192.168.2.1')).toBe(false);
  });

  it('refuses a network wider than a /16, and what is not an IPv4 network', () => {
    expect(() => parseSubnet('10.0.0.0/8')).toThrow(expect.objectContaining({ code: 'INVALID_INPUT', facts: { subject: 'subnet-too-wide', value: '10.0.0.0/8' } }));
    for (const bad of ['192.168.1/24', '192.168.1.0/33', 'fe80::/64', '192.168.1.0/24/1', '300.1.1.1']) expect(() => parseSubnet(bad)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });
});
