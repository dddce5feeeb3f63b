/**
 * The IPv4 networks a printer search may ask: the one the admin chose, or the networks this
 * computer is on. A search never goes beyond them: the request goes to the network's broadcast
 * address (or, for a network of four addresses or fewer, to each address), and an answer from an
 * address outside them is ignored.
 */
import { networkInterfaces } from 'node:os';
import { StationError } from '../../../shared/errors';

export interface Subnet {
  /** "192.168.1.0/24" */
  cidr: string;
  network: number;
  prefix: number;
}

/** The widest network a search may cover: a /16 is 65,534 addresses, one broadcast. */
export const widestPrefix = 16;

const toNumber = (address: string): number | null => {
  const parts = address.split('.');
  if (parts.length !== 4 || parts.some((part) => !/^\d{1,3}$/.test(part) || Number(part) > 255)) return null;
  return parts.reduce((value, part) => value * 256 + Number(part), 0);
};
export const toAddress = (value: number): string => [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');
const mask = (prefix: number) => (prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0);

export function parseSubnet(text: string): Subnet {
  const [address = '', prefixText = '32', ...rest] = text.trim().split('/');
  const value = toNumber(address);
  const prefix = Number(prefixText);
  if (value === null || rest.length > 0 || !/^\d{1,2}$/.test(prefixText) || prefix > 32) {
    throw new StationError('INVALID_INPUT', `"${text}" is not an IPv4 network such as 192.168.1.0/24.`, undefined, { facts: { subject: 'subnet', value: text } });
  }
  if (prefix < widestPrefix) {
    throw new StationError('INVALID_INPUT', `${text} is wider than a /${widestPrefix}: choose the bench's own network, such as 192.168.1.0/24.`, undefined, { facts: { subject: 'subnet-too-wide', value: text } });
  }
  const network = (value & mask(prefix)) >>> 0;
  return { cidr: `${toAddress(network)}/${prefix}`, network, prefix };
}

export function contains(subnet: Subnet, address: string): boolean {
  const value = toNumber(address);
  return value !== null && (value & mask(subnet.prefix)) >>> 0 === subnet.network;
}

/** Where the request goes: the broadcast address, or each address of a network of four or fewer. */
export function requestTargets(subnet: Subnet): string[] {
  const size = 2 ** (32 - subnet.prefix);
  if (size <= 4) return Array.from({ length: size }, (_, index) => toAddress(subnet.network + index));
  return [toAddress(subnet.network + size - 1)];
}

/** The IPv4 networks of this computer's interfaces (loopback left out), at most as wide as a /16. */
export function ownSubnets(interfaces = networkInterfaces()): Subnet[] {
  const found = new Map<string, Subnet>();
  for (const list of Object.values(interfaces)) {
    for (const entry of list ?? []) {
      if (entry.family !== 'IPv4' || entry.internal || !entry.cidr) continue;
      const [address = '', prefix = '32'] = entry.cidr.split('/');
      const subnet = parseSubnet(`${address}/${Math.max(Number(prefix), widestPrefix)}`);
      found.set(subnet.cidr, subnet);
    }
  }
  return [...found.values()];
}
