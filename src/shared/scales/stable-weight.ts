/**
 * A weight the station may send: the scale called it steady, and every reading over a short window
 * stayed within a tolerance of it. One steady reading is not enough (a parcel set down bounces
 * through a "steady" value on its way), so the filter waits the window out. Time is injected.
 */
import type { ScaleCondition, ScaleSample } from './scale-reading';

export interface StableWeightOptions {
  /** How long the readings must agree. */
  windowMs: number;
  /** How far apart readings in the window may be, in grams. */
  toleranceGrams: number;
}

export const defaultStableWeightOptions: StableWeightOptions = { windowMs: 600, toleranceGrams: 2 };

export type WeightState =
  | { state: 'stable'; grams: number; zero: boolean; net: boolean; tareGrams: number | null; at: number }
  | { state: 'settling'; grams: number; at: number }
  | { state: 'condition'; condition: ScaleCondition; detail: string; at: number };

export class StableWeightFilter {
  private window: { grams: number; at: number }[] = [];

  constructor(private readonly options: StableWeightOptions = defaultStableWeightOptions) {}

  /** Adds one sample read at `at` (ms) and answers what the scale shows now. */
  push(sample: ScaleSample, at: number): WeightState {
    if (sample.kind === 'condition') {
      this.window = [];
      return { state: 'condition', condition: sample.condition, detail: sample.detail, at };
    }
    if (!sample.steady) {
      this.window = [];
      return { state: 'settling', grams: sample.grams, at };
    }
    this.window.push({ grams: sample.grams, at });
    // Keep only what still matters: the readings in the window, and the one just before it.
    while (this.window.length > 1 && this.window[1]!.at <= at - this.options.windowMs) this.window.shift();
    const grams = this.window.map((entry) => entry.grams);
    const spread = Math.max(...grams) - Math.min(...grams);
    if (spread > this.options.toleranceGrams) {
      this.window = [{ grams: sample.grams, at }];
      return { state: 'settling', grams: sample.grams, at };
    }
    const first = this.window[0]!;
    if (at - first.at < this.options.windowMs) return { state: 'settling', grams: sample.grams, at };
    return { state: 'stable', grams: sample.grams, zero: sample.grams === 0, net: sample.net, tareGrams: sample.tareGrams, at };
  }

  /** Nothing read for a while: the next steady reading starts a new window. */
  reset(): void {
    this.window = [];
  }
}
