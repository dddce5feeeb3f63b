/**
 * Zebra's network discovery, as Zebra's own tools do it (the Link-OS SDK's NetworkDiscoverer,
 * Zebra Setup Utilities): a UDP datagram to port 4201, answered by every Zebra print server that
 * hears it with one datagram describing the printer. Requests, as the SDK sends them:
 *
 *   legacy    2E 2C 3A 01 00 00
 *   advanced  2E 2C 3A 01 00 00 00 01 A4 ED 00 00 00   (Link-OS printers answer with more)
 *
 * An answer starts `3A 2C 2E`; byte 3 is the discovery version: 3 for the legacy layout (at least
 * 375 bytes), 4 for the advanced one (at least 395 bytes). Strings are ASCII, NUL-padded within
 * their field; numbers are big-endian; addresses are four bytes. Only the fields the station uses
 * are read; an answer that is short, of another version or with an unusable address is refused.
 */
export const zebraDiscoveryPort = 4201;
export const legacyDiscoveryRequest = Uint8Array.from([0x2e, 0x2c, 0x3a, 0x01, 0x00, 0x00]);
export const advancedDiscoveryRequest = Uint8Array.from([0x2e, 0x2c, 0x3a, 0x01, 0x00, 0x00, 0x00, 0x01, 0xa4, 0xed, 0x00, 0x00, 0x00]);
/** The SDK reads answers into 600 bytes; anything much larger is not a discovery answer. */
export const maxDiscoveryAnswerBytes = 1500;

export interface DiscoveredZebra {
  discoveryVersion: 3 | 4;
  systemName: string | null;
  model: string | null;
  firmware: string | null;
  serialNumber: string | null;
  address: string;
  /** The raw printing port: from the answer (version 4), else 9100 (6101 for mobile models, as the SDK does). */
  port: number;
  /** Dots per inch from dots per millimetre (version 4 only). */
  dpi: number | null;
  printWidthDots: number | null;
}

type Field = readonly [offset: number, size: number];
const legacy = { model: [12, 20], firmware: [39, 10], serial: [60, 10], address: [72, 4], systemName: [84, 25], minLength: 375 } as const;
const advanced = {
  systemName: [13, 63],
  model: [76, 32],
  firmware: [108, 16],
  serial: [188, 32],
  address: [332, 4],
  port: [344, 2],
  dotsPerMm: [360, 2],
  dotsPerRow: [362, 2],
  minLength: 395,
} as const;

/** A NUL-padded ASCII field; printable characters only, else the field is unknown. */
function text(packet: Uint8Array, [offset, size]: Field): string | null {
  const bytes = packet.subarray(offset, offset + size);
  const end = bytes.indexOf(0);
  const used = end < 0 ? bytes : bytes.subarray(0, end);
  if (used.length === 0 || used.some((byte) => byte < 0x20 || byte > 0x7e)) return null;
  return String.fromCharCode(...used).trim() || null;
}

const number = (packet: Uint8Array, [offset, size]: Field): number => packet.subarray(offset, offset + size).reduce((value, byte) => value * 256 + byte, 0);

const address = (packet: Uint8Array, [offset]: Field): string => Array.from(packet.subarray(offset, offset + 4)).join('.');

/** The port the SDK assumes for a legacy answer: mobile printers print on 6101. */
const legacyPort = (model: string | null) => (model && /^(QL|RW|MZ|P4T|MQ|MU)/.test(model) ? 6101 : 9100);

const dpiOf = (dotsPerMm: number): number | null => {
  const known: Record<number, number> = { 6: 152, 8: 203, 12: 300, 24: 600 };
  return known[dotsPerMm] ?? (dotsPerMm > 0 && dotsPerMm < 100 ? Math.round(dotsPerMm * 25.4) : null);
};

/** An answer as a printer, or null when it is not a discovery answer this station can read. */
export function parseDiscoveryAnswer(packet: Uint8Array): DiscoveredZebra | null {
  if (packet.length < 4 || packet.length > maxDiscoveryAnswerBytes || packet[0] !== 0x3a || packet[1] !== 0x2c || packet[2] !== 0x2e) return null;
  const version = packet[3];
  if (version === 3 && packet.length >= legacy.minLength) {
    const model = text(packet, legacy.model);
    return {
      discoveryVersion: 3,
      systemName: text(packet, legacy.systemName),
      model,
      firmware: text(packet, legacy.firmware),
      serialNumber: text(packet, legacy.serial),
      address: address(packet, legacy.address),
      port: legacyPort(model),
      dpi: null,
      printWidthDots: null,
    };
  }
  if (version === 4 && packet.length >= advanced.minLength) {
    const port = number(packet, advanced.port);
    const dotsPerRow = number(packet, advanced.dotsPerRow);
    return {
      discoveryVersion: 4,
      systemName: text(packet, advanced.systemName),
      model: text(packet, advanced.model),
      firmware: text(packet, advanced.firmware),
      serialNumber: text(packet, advanced.serial),
      address: address(packet, advanced.address),
      port: port > 0 ? port : 9100,
      dpi: dpiOf(number(packet, advanced.dotsPerMm)),
      printWidthDots: dotsPerRow > 0 ? dotsPerRow : null,
    };
  }
  return null;
}
