/**
 * Answers Zebra's network discovery as a Link-OS printer does, so the station's printer search can
 * be tested end to end on loopback. A printer listens on UDP 4201; a host sends
 * `2E 2C 3A 01 00 00` (the legacy request) or `2E 2C 3A 01 00 00 00 01 A4 ED 00 00 00` (the
 * advanced request of Link-OS) and the printer answers the sender with one datagram starting
 * `3A 2C 2E`, its discovery version at byte 3: 3 (legacy layout) or 4 (advanced layout). Field
 * offsets as Zebra's Link-OS SDK decodes them (docs/hardware.md lists them); strings are NUL-padded
 * ASCII, numbers big-endian. The port is configurable so tests need no privileges and no broadcast.
 */
import { createSocket, type Socket } from 'node:dgram';

export interface DiscoveryIdentity {
  /** The printer's system (DNS) name. */
  systemName: string;
  /** Product name, e.g. "ZD421-203dpi". */
  model: string;
  firmware: string;
  serial: string;
  dpi: number;
  printWidthDots: number;
  /** The address and raw-printing port the printer gives in its answer. */
  address: string;
  port: number;
}

const legacyRequest = [0x2e, 0x2c, 0x3a, 0x01, 0x00, 0x00];
const advancedRequest = [0x2e, 0x2c, 0x3a, 0x01, 0x00, 0x00, 0x00, 0x01, 0xa4, 0xed, 0x00, 0x00, 0x00];

const same = (bytes: Buffer, expected: number[]) => bytes.length === expected.length && expected.every((byte, index) => bytes[index] === byte);

function put(packet: Buffer, offset: number, size: number, text: string): void {
  packet.write(text.slice(0, size - 1), offset, size - 1, 'latin1');
}

function putAddress(packet: Buffer, offset: number, address: string): void {
  address.split('.').forEach((part, index) => packet.writeUInt8(Number(part) & 0xff, offset + index));
}

/** A fixed MAC address derived from the serial number, so one printer always has the same one. */
function macOf(serial: string): Buffer {
  const mac = Buffer.from([0x00, 0x07, 0x4d, 0, 0, 0]);
  for (let index = 0; index < serial.length; index += 1) mac.writeUInt8(mac.readUInt8(3 + (index % 3)) ^ (serial.charCodeAt(index) & 0xff), 3 + (index % 3));
  return mac;
}

/** The version 3 (legacy) answer: 375 bytes. */
export function legacyAnswer(identity: DiscoveryIdentity): Buffer {
  const packet = Buffer.alloc(375);
  packet.set([0x3a, 0x2c, 0x2e, 3], 0);
  put(packet, 4, 8, '79071');
  put(packet, 12, 20, identity.model);
  put(packet, 32, 7, '0523');
  put(packet, 39, 10, identity.firmware);
  put(packet, 49, 5, 'ZBR');
  macOf(identity.serial).copy(packet, 54);
  put(packet, 60, 10, identity.serial);
  packet.writeUInt16BE(1, 70);
  putAddress(packet, 72, identity.address);
  putAddress(packet, 76, '255.0.0.0');
  putAddress(packet, 80, '0.0.0.0');
  put(packet, 84, 25, identity.systemName);
  packet.writeUInt8(1, 358);
  put(packet, 359, 16, 'Wired');
  return packet;
}

/** The version 4 (advanced, Link-OS) answer: 421 bytes, with resolution, head width and raw port. */
export function advancedAnswer(identity: DiscoveryIdentity): Buffer {
  const packet = Buffer.alloc(421);
  packet.set([0x3a, 0x2c, 0x2e, 4], 0);
  packet.writeUInt8(1, 4);
  put(packet, 8, 5, 'ZBR');
  put(packet, 13, 63, identity.systemName);
  put(packet, 76, 32, identity.model);
  put(packet, 108, 16, identity.firmware);
  put(packet, 124, 36, 'Packing bench');
  put(packet, 188, 32, identity.serial);
  macOf(identity.serial).copy(packet, 324);
  putAddress(packet, 332, identity.address);
  putAddress(packet, 336, '255.0.0.0');
  putAddress(packet, 340, '0.0.0.0');
  packet.writeUInt16BE(identity.port, 344);
  packet.writeUInt16BE(Math.round(identity.dpi / 25.4), 360);
  packet.writeUInt16BE(identity.printWidthDots, 362);
  packet.writeUInt16BE(identity.printWidthDots, 396);
  return packet;
}

export class DiscoveryResponder {
  private socket: Socket | null = null;
  /** Requests answered, for tests. */
  answered = 0;

  constructor(private readonly identity: () => DiscoveryIdentity) {}

  /** Listens on host:port (0 picks a free port) and resolves with the port. */
  async start(host: string, port: number): Promise<number> {
    const socket = createSocket('udp4');
    socket.on('message', (message, from) => {
      const answer = same(message, advancedRequest) ? advancedAnswer(this.identity()) : same(message, legacyRequest) ? legacyAnswer(this.identity()) : null;
      if (!answer) return;
      this.answered += 1;
      socket.send(answer, from.port, from.address);
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(port, host, () => {
        socket.off('error', reject);
        resolve();
      });
    });
    this.socket = socket;
    return socket.address().port;
  }

  async stop(): Promise<void> {
    const socket = this.socket;
    this.socket = null;
    if (socket) await new Promise<void>((resolve) => socket.close(() => resolve()));
  }
}
