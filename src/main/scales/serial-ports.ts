/**
 * The serial ports of this computer, for choosing a scale. serialport's own listing is used where
 * it can run; on Linux it spawns `udevadm` and, where that is missing (a container, a minimal
 * install), its spawn error escapes as an uncaught exception that would end the station, so there
 * the ports are read from /dev instead.
 */
import { access, readdir, realpath, stat } from 'node:fs/promises';
import { delimiter, join } from 'node:path';

export interface SerialPortInfo {
  path: string;
  manufacturer: string | null;
  serialNumber: string | null;
  vendorId: string | null;
  productId: string | null;
}

async function onPath(command: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  for (const folder of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    try {
      await access(join(folder, command));
      return true;
    } catch {
      // Not in this folder.
    }
  }
  return false;
}

/** USB serial adapters by their stable names first (/dev/serial/by-id), then the plain device nodes. */
async function linuxPortsFromDev(): Promise<SerialPortInfo[]> {
  const found = new Map<string, SerialPortInfo>();
  const byId = await readdir('/dev/serial/by-id').catch(() => [] as string[]);
  for (const name of byId) {
    const path = join('/dev/serial/by-id', name);
    const target = await realpath(path).catch(() => null);
    if (target) found.set(target, { path, manufacturer: null, serialNumber: null, vendorId: null, productId: null });
  }
  const nodes = await readdir('/dev').catch(() => [] as string[]);
  for (const name of nodes.filter((node) => /^tty(USB|ACM)\d+$/.test(node)).sort()) {
    const path = join('/dev', name);
    if (!found.has(path)) found.set(path, { path, manufacturer: null, serialNumber: null, vendorId: null, productId: null });
  }
  return [...found.values()];
}

export async function listSerialPorts(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): Promise<SerialPortInfo[]> {
  if (platform === 'linux' && !(await onPath('udevadm', env))) return linuxPortsFromDev();
  const { SerialPort } = await import('serialport');
  const ports = await SerialPort.list();
  return ports.map((port) => ({
    path: port.path,
    manufacturer: port.manufacturer ?? null,
    serialNumber: port.serialNumber ?? null,
    vendorId: port.vendorId ?? null,
    productId: port.productId ?? null,
  }));
}

/**
 * Whether a serial port is there on this computer: one it lists, or (outside Windows, where every
 * port is a COM name it lists) a character device at that path, such as a pseudo-terminal or a
 * port serialport's listing leaves out.
 */
export async function serialPortPresent(path: string, listed: readonly SerialPortInfo[], platform: NodeJS.Platform = process.platform): Promise<boolean> {
  if (listed.some((port) => port.path === path)) return true;
  if (platform === 'win32') return false;
  try {
    return (await stat(path)).isCharacterDevice();
  } catch {
    return false;
  }
}
