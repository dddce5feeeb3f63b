/**
 * Finds network Zebras the way Zebra's own tools do (zebra-discovery-packet.ts): both requests
 * to each target of the chosen networks, then the answers collected for `timeoutMs`. Bounded:
 * one socket, a fixed time, at most `maxPrinters` printers, answers only from inside the networks
 * asked, and every answer parsed before it is believed.
 */
import { createSocket } from 'node:dgram';
import { advancedDiscoveryRequest, legacyDiscoveryRequest, maxDiscoveryAnswerBytes, parseDiscoveryAnswer, zebraDiscoveryPort, type DiscoveredZebra } from './zebra-discovery-packet';
import { contains, requestTargets, type Subnet } from './subnets';

export interface NetworkDiscoveryOptions {
  subnets: Subnet[];
  port?: number;
  timeoutMs?: number;
  maxPrinters?: number;
}

export async function discoverNetworkZebras({ subnets, port = zebraDiscoveryPort, timeoutMs = 3000, maxPrinters = 64 }: NetworkDiscoveryOptions): Promise<DiscoveredZebra[]> {
  if (subnets.length === 0) return [];
  const socket = createSocket('udp4');
  const found = new Map<string, DiscoveredZebra>();
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, () => {
      socket.off('error', reject);
      resolve();
    });
  });
  socket.setBroadcast(true);
  return new Promise((resolve) => {
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      socket.close();
      resolve([...found.values()].sort((a, b) => a.address.localeCompare(b.address, 'en', { numeric: true })));
    };
    const timer = setTimeout(finish, timeoutMs);
    socket.on('message', (message, from) => {
      if (message.length > maxDiscoveryAnswerBytes || !subnets.some((subnet) => contains(subnet, from.address))) return;
      const printer = parseDiscoveryAnswer(message);
      if (!printer) return;
      // The sender's address is the one that answered; a printer may report another (a second interface).
      const answered = { ...printer, address: from.address };
      const known = found.get(answered.address);
      // A Link-OS printer answers both requests: the advanced answer says more.
      if (!known || known.discoveryVersion < answered.discoveryVersion) found.set(answered.address, answered);
      if (found.size >= maxPrinters) finish();
    });
    // A send that fails (no route to one network) leaves the others to answer.
    socket.on('error', () => undefined);
    for (const subnet of subnets)
      for (const target of requestTargets(subnet))
        for (const request of [advancedDiscoveryRequest, legacyDiscoveryRequest]) socket.send(request, port, target, () => undefined);
  });
}
