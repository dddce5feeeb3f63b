import { describe, expect, it } from 'vitest';
import { clampVolume, gainForVolume, scheduleSound, soundDurationMs, soundKinds, tones } from '../../../src/renderer/src/sound/tones';

describe('outcome sounds', () => {
  it('gives each outcome its own sound, told apart by rhythm and timbre as well as pitch', () => {
    const signature = (kind: (typeof soundKinds)[number]) => JSON.stringify(tones[kind]);
    expect(new Set(soundKinds.map(signature)).size).toBe(soundKinds.length);
    const waveforms = soundKinds.map((kind) => tones[kind][0]?.waveform);
    expect(new Set(waveforms).size).toBe(soundKinds.length);
  });

  it('makes the error the longest and lowest, the printed chirp the shortest and rising', () => {
    expect(soundDurationMs('error')).toBeGreaterThan(soundDurationMs('duplicate'));
    expect(soundDurationMs('printed')).toBeLessThan(soundDurationMs('duplicate'));
    const lowest = (kind: (typeof soundKinds)[number]) => Math.min(...tones[kind].map((note) => note.endFrequency ?? note.frequency));
    expect(lowest('error')).toBeLessThan(lowest('duplicate'));
    const printed = tones.printed.map((note) => note.frequency);
    expect(printed[1]).toBeGreaterThan(printed[0] ?? Infinity);
  });

  it('is silent at volume 0 and louder with the slider, never clipping', () => {
    expect(scheduleSound('printed', 0)).toEqual([]);
    expect(gainForVolume(0, 'sine')).toBe(0);
    expect(gainForVolume(50, 'sine')).toBeLessThan(gainForVolume(100, 'sine'));
    for (const waveform of ['sine', 'triangle', 'square'] as const) expect(gainForVolume(100, waveform)).toBeLessThanOrEqual(0.8);
  });

  it('schedules notes one after the other with their gaps', () => {
    const notes = scheduleSound('duplicate', 100);
    expect(notes).toHaveLength(2);
    expect(notes[0]?.start).toBe(0);
    expect(notes[1]?.start).toBeCloseTo(0.27, 5);
    expect(notes[1]?.stop).toBeCloseTo(0.43, 5);
  });

  it('clamps a volume out of range or not a number', () => {
    expect(clampVolume(140)).toBe(100);
    expect(clampVolume(-3)).toBe(0);
    expect(clampVolume(Number.NaN)).toBe(0);
  });
});
