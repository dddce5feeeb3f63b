/**
 * A scale on a serial port that is not there (issue 39, item 19): Setup refuses it at once, naming
 * the port and the ports this computer has (or saying it has none), instead of keeping it and
 * reading "not connected — check the cable" for ever. A port the computer lists, or a device node
 * that is there (a pseudo-terminal), is kept; so is a USB HID scale, which is chosen from a list.
 * The screen's words for the refusal: test/unit/renderer/error-words.test.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ScaleSetting } from '../../../src/shared/contract/scales';
import { StationError } from '../../../src/shared/errors';
import { createLogger } from '../../../src/main/logging/logger';
import { scalesHandlers } from '../../../src/main/handlers/scales';
import { createScaleService } from '../../../src/main/scales/scale-service';
import { serialPortPresent, type SerialPortInfo } from '../../../src/main/scales/serial-ports';

const port = (path: string): SerialPortInfo => ({ path, manufacturer: null, serialNumber: null, vendorId: null, productId: null });
const serial = (path: string): ScaleSetting => ({ kind: 'serial', path, protocol: 'mt-sics', baudRate: 9600, dataBits: 8, parity: 'none', checksum: false });

function handlers(ports: SerialPortInfo[]) {
  let saved: ScaleSetting | null = null;
  const scale = createScaleService({
    setting: () => saved,
    saveSetting: (setting) => (saved = setting),
    emit: () => undefined,
    logger: createLogger(() => undefined),
    open: async () => ({ close: async () => undefined }),
  });
  const calls = scalesHandlers({ scale, listSerial: async () => ports, listHid: async () => [], portPresent: (path, listed) => serialPortPresent(path, listed, 'win32') });
  return { set: (setting: ScaleSetting | null) => calls['scales.set']({ scale: setting }, {} as never), saved: () => saved };
}

async function refusal(promise: unknown): Promise<StationError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof StationError) return error;
    throw error;
  }
  throw new Error('the port was taken');
}

describe('a scale port that is not there', () => {
  it('is refused with the ports the computer has, and nothing is kept', async () => {
    const bench = handlers([port('COM1'), port('COM4')]);
    const error = await refusal(bench.set(serial('COM7')));
    expect(error).toMatchObject({ code: 'NOT_FOUND', facts: { subject: 'serial-port', port: 'COM7', ports: 'COM1, COM4', count: 2 } });
    expect(bench.saved()).toBeNull();
  });

  it('says so when the computer has no serial port at all', async () => {
    const error = await refusal(handlers([]).set(serial('/dev/ttyUSB0')));
    expect(error).toMatchObject({ code: 'NOT_FOUND', facts: { subject: 'serial-port-none', port: '/dev/ttyUSB0', count: 0 } });
  });

  it('keeps a port the computer lists, a HID scale, and no scale', async () => {
    const bench = handlers([port('COM4')]);
    await bench.set(serial('COM4'));
    expect(bench.saved()).toMatchObject({ kind: 'serial', path: 'COM4' });
    await bench.set({ kind: 'hid', vendorId: 0x0922, productId: 0x8003, path: null });
    expect(bench.saved()).toMatchObject({ kind: 'hid' });
    await bench.set(null);
    expect(bench.saved()).toBeNull();
  });

  it('finds a device node that is there outside Windows (a pseudo-terminal serialport does not list), and nothing for a plain file', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'ports-'));
    try {
      expect(await serialPortPresent('/dev/null', [], 'linux')).toBe(true);
      writeFileSync(join(folder, 'ttyUSB0'), '');
      expect(await serialPortPresent(join(folder, 'ttyUSB0'), [], 'linux')).toBe(false);
      expect(await serialPortPresent(join(folder, 'ttyUSB9'), [], 'linux')).toBe(false);
      expect(await serialPortPresent('/dev/null', [], 'win32')).toBe(false);
      expect(await serialPortPresent('COM3', [port('COM3')], 'win32')).toBe(true);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
