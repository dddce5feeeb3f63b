import { describe, expect, it } from 'vitest';
import { addSample, addToSelection, bundlesDone, minutesAndSeconds, parseBundleIds, secondsLeft } from '../../../src/renderer/src/shift/run-math';

describe('shift-start run arithmetic', () => {
  it('reads bundle ids typed, pasted or scanned, in order and once each', () => {
    expect(parseBundleIds('BND-1, BND-2;BND-3\nBND-2  BND-4\t')).toEqual(['BND-1', 'BND-2', 'BND-3', 'BND-4']);
    expect(parseBundleIds('   ')).toEqual([]);
    expect(addToSelection(['BND-1', 'BND-2'], ['BND-2', 'BND-5'])).toEqual(['BND-1', 'BND-2', 'BND-5']);
  });

  it('counts bundles done from labels done, forwards and reversed', () => {
    const plans = [{ labels: 3 }, { labels: 1 }, { labels: 5 }];
    expect(bundlesDone(plans, 0, false)).toBe(0);
    expect(bundlesDone(plans, 2, false)).toBe(0);
    expect(bundlesDone(plans, 4, false)).toBe(2);
    expect(bundlesDone(plans, 9, false)).toBe(3);
    expect(bundlesDone(plans, 5, true)).toBe(1);
    expect(bundlesDone(plans, 6, true)).toBe(2);
  });

  it('estimates the time left at the printer’s own pace, not at the pace labels leave the station', () => {
    // 92 labels on a printer of one label a second: 30 sent into its buffer at once, 4 printed in 4 s.
    let samples = addSample([], { at: 0, done: 0, printed: 0 });
    expect(secondsLeft(samples, 92)).toBeNull();
    samples = addSample(samples, { at: 500, done: 30, printed: 0 });
    expect(secondsLeft(samples, 92)).toBeNull();
    samples = addSample(samples, { at: 4_000, done: 34, printed: 4 });
    expect(secondsLeft(samples, 92)).toBe(88);
    samples = addSample(samples, { at: 20_000, done: 92, printed: 20 });
    expect(secondsLeft(samples, 92)).toBe(72);
    samples = addSample(samples, { at: 92_000, done: 92, printed: 92 });
    expect(secondsLeft(samples, 92)).toBe(0);
  });

  it('times a printer that never says what it printed by the labels sent, once they have gone on for a while', () => {
    let samples = addSample([], { at: 0, done: 0, printed: 0 });
    samples = addSample(samples, { at: 5_000, done: 5, printed: 0 });
    expect(secondsLeft(samples, 20)).toBeNull();
    samples = addSample(samples, { at: 10_000, done: 10, printed: 0 });
    expect(secondsLeft(samples, 20)).toBe(10);
    samples = addSample(samples, { at: 12_000, done: 20, printed: 0 });
    expect(secondsLeft(samples, 20)).toBe(0);
  });

  it('has no estimate while nothing moves (paused), and forgets samples older than the window', () => {
    let samples = addSample([], { at: 0, done: 4, printed: 4 });
    samples = addSample(samples, { at: 20_000, done: 4, printed: 4 });
    expect(secondsLeft(samples, 10)).toBeNull();
    samples = addSample(samples, { at: 60_000, done: 6, printed: 6 });
    expect(samples.map((sample) => sample.at)).toEqual([60_000]);
  });

  it('splits seconds into minutes and seconds', () => {
    expect(minutesAndSeconds(65)).toEqual({ minutes: 1, seconds: 5 });
    expect(minutesAndSeconds(-3)).toEqual({ minutes: 0, seconds: 0 });
  });
});
