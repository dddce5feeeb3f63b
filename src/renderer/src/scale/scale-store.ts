/**
 * What the bench's scale shows, as the station pushes it (`scales.reading`): a stable weight, a
 * weight still settling, or a condition (motion, overload, negative, disconnected…). The ship
 * panel and the new-shipment form take only a stable weight above zero from it.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { StationApi } from '../../../shared/contract';
import type { ScaleReadingData } from '../../../shared/contract/scales';

export interface ScaleState {
  reading: ScaleReadingData;
  /** Whether this bench has a scale set up (a reading other than "none" came). */
  configured: boolean;
  /** Starts following the station's readings; answers the function that stops. */
  follow(): () => void;
  /** The stable weight above zero the scale shows now, in whole grams, or null. */
  weightNow(): number | null;
  /** Called for every stable weight above zero (the ship panel fills its weight from it). */
  onWeighed(listener: (grams: number) => void): () => void;
}

/** Whole grams, as the service takes them. */
export const wholeGrams = (grams: number): number => Math.round(grams);

export function createScaleStore(deps: { station: StationApi }): StoreApi<ScaleState> {
  const listeners = new Set<(grams: number) => void>();
  return createStore<ScaleState>()((set, get) => {
    const apply = (reading: ScaleReadingData) => {
      set({ reading, configured: reading.state !== 'none' });
      if (reading.state === 'stable' && !reading.zero && wholeGrams(reading.grams) >= 1) for (const listener of listeners) listener(wholeGrams(reading.grams));
    };
    return {
      reading: { state: 'none' },
      configured: false,
      follow() {
        const stop = deps.station.on('scales.reading', apply);
        void deps.station['scales.current']({}).then((result) => {
          if (result.ok) apply(result.value);
        });
        return stop;
      },
      weightNow() {
        const reading = get().reading;
        return reading.state === 'stable' && !reading.zero && wholeGrams(reading.grams) >= 1 ? wholeGrams(reading.grams) : null;
      },
      onWeighed(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    };
  });
}
