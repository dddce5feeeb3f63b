import type { HandlersOf } from '../contract/dispatcher';
import type { Logger } from '../logging/logger';
import { listHidScales } from '../scales/hid-scale';
import type { ScaleService } from '../scales/scale-service';
import { StationError } from '../../shared/errors';
import { listSerialPorts, serialPortPresent } from '../scales/serial-ports';
import type { scalesCalls } from '../../shared/contract/scales';
import { errorText } from '../../shared/error-text';

export interface ScalesHandlerDeps {
  scale: ScaleService;
  logger?: Logger;
  /** The device lists (tests give fixed ones); the OS's by default. */
  listSerial?: typeof listSerialPorts;
  listHid?: typeof listHidScales;
  /** Whether a typed port is there (tests give their own); the OS's listing or device node by default. */
  portPresent?: typeof serialPortPresent;
}

/** Ports named in a refusal at most: a computer with a dozen has them in Setup's own list. */
const portsNamed = 8;

export function scalesHandlers({ scale, logger, listSerial = listSerialPorts, listHid = listHidScales, portPresent = serialPortPresent }: ScalesHandlerDeps): HandlersOf<typeof scalesCalls> {
  /** A list that cannot be read (no native module for this OS, no access) is empty, and logged. */
  const orNone = async <T>(what: string, list: () => Promise<T[]>): Promise<T[]> => {
    try {
      return await list();
    } catch (error) {
      logger?.info(`no ${what} could be listed`, { error: errorText(error) });
      return [];
    }
  };
  return {
    'scales.list': async () => ({ serialPorts: await orNone('serial ports', () => listSerial()), hidScales: await orNone('HID scales', () => listHid()) }),
    'scales.get': async () => ({ scale: scale.setting() }),
    'scales.set': async ({ scale: setting }) => {
      if (setting?.kind === 'serial') {
        // A port that is not there would only ever read "not connected": say so now, with the ports there are.
        const ports = await orNone('serial ports', () => listSerial());
        if (!(await portPresent(setting.path, ports))) {
          const names = ports.map((port) => port.path);
          throw new StationError('NOT_FOUND', `There is no serial port ${setting.path} on this computer${names.length > 0 ? `; it has ${names.join(', ')}` : '; it has none'}.`, undefined, {
            facts: { subject: names.length > 0 ? 'serial-port' : 'serial-port-none', port: setting.path, ports: names.slice(0, portsNamed).join(', '), count: names.length },
          });
        }
      }
      await scale.set(setting);
      return { scale: scale.setting() };
    },
    'scales.current': async () => scale.current(),
  };
}
