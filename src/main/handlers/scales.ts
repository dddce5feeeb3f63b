import type { HandlersOf } from '../contract/dispatcher';
import type { Logger } from '../logging/logger';
import { listHidScales } from '../scales/hid-scale';
import type { ScaleService } from '../scales/scale-service';
import { listSerialPorts } from '../scales/serial-ports';
import type { scalesCalls } from '../../shared/contract/scales';
import { errorText } from '../../shared/error-text';

export interface ScalesHandlerDeps {
  scale: ScaleService;
  logger?: Logger;
  /** The device lists (tests give fixed ones); the OS's by default. */
  listSerial?: typeof listSerialPorts;
  listHid?: typeof listHidScales;
}

export function scalesHandlers({ scale, logger, listSerial = listSerialPorts, listHid = listHidScales }: ScalesHandlerDeps): HandlersOf<typeof scalesCalls> {
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
      await scale.set(setting);
      return { scale: scale.setting() };
    },
    'scales.current': async () => scale.current(),
  };
}
