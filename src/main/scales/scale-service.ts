/**
 * The bench's scale, kept open while one is set up: every sample goes through the stable-weight
 * filter, and what the scale shows is pushed to the screen as it changes (`scales.reading`). A
 * scale that goes away is said plainly (disconnected) and opened again every `reconnectMs`, so
 * plugging it back in is enough. Only a `stable` reading carries a weight the station may send.
 */
import type { ScaleReadingData, ScaleSetting } from '../../shared/contract/scales';
import { StationError } from '../../shared/errors';
import type { ScaleSample } from '../../shared/scales/scale-reading';
import { defaultStableWeightOptions, StableWeightFilter, type StableWeightOptions, type WeightState } from '../../shared/scales/stable-weight';
import type { Logger } from '../logging/logger';
import { openHidScale } from './hid-scale';
import type { ScaleConnection, ScaleListener } from './scale-connection';
import { openSerialScale, type SerialScaleTiming } from './serial-scale';
import { errorText } from '../../shared/error-text';

export type ScaleOpener = (setting: ScaleSetting, listener: ScaleListener) => Promise<ScaleConnection>;

export interface ScaleServiceDeps {
  /** The bench's scale setting (kept in the bench's own file). */
  setting(): ScaleSetting | null;
  saveSetting(setting: ScaleSetting | null): void;
  emit(reading: ScaleReadingData): void;
  logger: Logger;
  /** Milliseconds, for the stable-weight window; Date.now by default. */
  now?: () => number;
  open?: ScaleOpener;
  stable?: StableWeightOptions;
  serialTiming?: SerialScaleTiming;
  reconnectMs?: number;
}

export interface ScaleService {
  setting(): ScaleSetting | null;
  /** Saves the bench's scale and (re)opens it; null closes it. */
  set(setting: ScaleSetting | null): Promise<void>;
  current(): ScaleReadingData;
  /**
   * The next stable weight, or SCALE_NO_WEIGHT with what the scale showed instead after
   * `timeoutMs`; SCALE_NOT_CONFIGURED without a scale.
   */
  waitForStable(timeoutMs: number): Promise<Extract<ScaleReadingData, { state: 'stable' }>>;
  /** Opens the saved scale, if any (a long-running host calls it at start; a one-shot read too). */
  start(): Promise<void>;
  close(): Promise<void>;
}

const iso = (ms: number) => new Date(ms).toISOString();

function asReading(state: WeightState): ScaleReadingData {
  switch (state.state) {
    case 'stable':
      return { state: 'stable', grams: state.grams, zero: state.zero, net: state.net, tareGrams: state.tareGrams, at: iso(state.at) };
    case 'settling':
      return { state: 'settling', grams: state.grams, at: iso(state.at) };
    case 'condition':
      return { state: 'condition', condition: state.condition, detail: state.detail.slice(0, 200), at: iso(state.at) };
  }
}

/** Two readings that show the screen the same thing (a new time alone is no news). */
function sameShown(a: ScaleReadingData, b: ScaleReadingData): boolean {
  if (a.state !== b.state) return false;
  if (a.state === 'none' || b.state === 'none') return true;
  if (a.state === 'condition' && b.state === 'condition') return a.condition === b.condition;
  return 'grams' in a && 'grams' in b && a.grams === b.grams;
}

export function createScaleService(deps: ScaleServiceDeps): ScaleService {
  const now = deps.now ?? Date.now;
  const reconnectMs = deps.reconnectMs ?? 2000;
  const open: ScaleOpener =
    deps.open ?? ((setting, listener) => (setting.kind === 'serial' ? openSerialScale(setting, listener, deps.serialTiming) : openHidScale(setting, listener)));
  let connection: ScaleConnection | null = null;
  let generation = 0;
  let retry: ReturnType<typeof setTimeout> | null = null;
  let reading: ScaleReadingData = { state: 'none' };
  const waiters = new Set<(reading: ScaleReadingData) => void>();
  let filter = new StableWeightFilter(deps.stable ?? defaultStableWeightOptions);

  const show = (next: ScaleReadingData) => {
    const changed = !sameShown(reading, next);
    reading = next;
    if (changed) deps.emit(next);
    for (const waiter of waiters) waiter(next);
  };

  const disconnected = (detail: string) => show({ state: 'condition', condition: 'disconnected', detail: detail.slice(0, 200), at: iso(now()) });

  const connect = async (mine: number) => {
    const setting = deps.setting();
    if (setting === null || mine !== generation) return;
    filter = new StableWeightFilter(deps.stable ?? defaultStableWeightOptions);
    const listener: ScaleListener = {
      sample: (sample: ScaleSample) => {
        if (mine === generation) show(asReading(filter.push(sample, now())));
      },
      ended: (detail) => {
        if (mine !== generation) return;
        connection = null;
        disconnected(detail);
        schedule(mine);
      },
    };
    try {
      const opened = await open(setting, listener);
      if (mine !== generation) {
        await opened.close();
        return;
      }
      connection = opened;
    } catch (error) {
      if (mine !== generation) return;
      const detail = errorText(error);
      deps.logger.info('the scale could not be opened', { detail });
      disconnected(detail);
      schedule(mine);
    }
  };

  const schedule = (mine: number) => {
    if (retry !== null) clearTimeout(retry);
    retry = setTimeout(() => {
      retry = null;
      void connect(mine);
    }, reconnectMs);
    retry.unref?.();
  };

  const stop = async () => {
    generation += 1;
    if (retry !== null) clearTimeout(retry);
    retry = null;
    const open = connection;
    connection = null;
    await open?.close();
  };

  return {
    setting: () => deps.setting(),
    async set(setting) {
      await stop();
      deps.saveSetting(setting);
      show({ state: 'none' });
      if (setting !== null) await connect(generation);
    },
    current: () => reading,
    waitForStable(timeoutMs) {
      if (deps.setting() === null) return Promise.reject(new StationError('SCALE_NOT_CONFIGURED', 'No scale is set up on this bench. Choose one in Setup, or give --device.'));
      return new Promise((resolve, reject) => {
        const settle = (next: ScaleReadingData) => {
          if (next.state !== 'stable') return;
          done();
          resolve(next);
        };
        const timer = setTimeout(() => {
          done();
          const last = reading;
          const facts = last.state === 'condition' ? { condition: last.condition, detail: last.detail } : { condition: last.state === 'settling' ? 'motion' : 'disconnected', detail: '' };
          reject(new StationError('SCALE_NO_WEIGHT', `The scale gave no stable weight within ${timeoutMs} ms (${facts.condition}${facts.detail ? `: ${facts.detail}` : ''}).`, undefined, { facts }));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          waiters.delete(settle);
        };
        waiters.add(settle);
        settle(reading);
      });
    },
    async start() {
      if (deps.setting() !== null && connection === null) await connect(generation);
    },
    close: stop,
  };
}
