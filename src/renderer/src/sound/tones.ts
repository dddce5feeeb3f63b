/**
 * The three outcome sounds, as notes for Web Audio to play: no audio files to ship or load.
 * They differ in pitch, rhythm and timbre, so they are told apart in a noisy hall and by people
 * who can't tell pitches apart: printed is one short rising chirp, duplicate two equal mid beeps,
 * error a long low falling buzz.
 */

export const soundKinds = ['printed', 'duplicate', 'error'] as const;
export type SoundKind = (typeof soundKinds)[number];

export type Waveform = 'sine' | 'triangle' | 'square';

export interface Note {
  /** Hz at the start of the note. */
  frequency: number;
  /** Hz at the end (a glide); the start frequency when absent. */
  endFrequency?: number;
  durationMs: number;
  /** Silence after the note, ms. */
  gapMs: number;
  waveform: Waveform;
}

export const tones: Record<SoundKind, readonly Note[]> = {
  printed: [
    { frequency: 880, durationMs: 90, gapMs: 10, waveform: 'sine' },
    { frequency: 1320, durationMs: 140, gapMs: 0, waveform: 'sine' },
  ],
  duplicate: [
    { frequency: 660, durationMs: 160, gapMs: 110, waveform: 'triangle' },
    { frequency: 660, durationMs: 160, gapMs: 0, waveform: 'triangle' },
  ],
  error: [
    { frequency: 330, endFrequency: 220, durationMs: 260, gapMs: 60, waveform: 'square' },
    { frequency: 220, endFrequency: 165, durationMs: 420, gapMs: 0, waveform: 'square' },
  ],
};

/** Square waves sound about twice as loud as sines at the same gain. */
const waveformLoudness: Record<Waveform, number> = { sine: 1, triangle: 0.9, square: 0.45 };

/** Volume is 0–100 as on the settings screen. */
export const clampVolume = (volume: number): number => (Number.isFinite(volume) ? Math.min(100, Math.max(0, Math.round(volume))) : 0);

/**
 * Peak gain for a volume: loudness is perceived roughly logarithmically, so the slider follows a
 * square curve, and the top is kept below 1 so notes never clip.
 */
export function gainForVolume(volume: number, waveform: Waveform): number {
  const level = clampVolume(volume) / 100;
  return 0.8 * level * level * waveformLoudness[waveform];
}

export interface ScheduledNote {
  /** Seconds from the start of the sound. */
  start: number;
  stop: number;
  frequency: number;
  endFrequency: number;
  waveform: Waveform;
  gain: number;
}

/** Turns a sound into start/stop times for oscillators; silent (empty) at volume 0. */
export function scheduleSound(kind: SoundKind, volume: number): ScheduledNote[] {
  if (clampVolume(volume) === 0) return [];
  const scheduled: ScheduledNote[] = [];
  let at = 0;
  for (const note of tones[kind]) {
    const start = at / 1000;
    const stop = (at + note.durationMs) / 1000;
    scheduled.push({
      start,
      stop,
      frequency: note.frequency,
      endFrequency: note.endFrequency ?? note.frequency,
      waveform: note.waveform,
      gain: gainForVolume(volume, note.waveform),
    });
    at += note.durationMs + note.gapMs;
  }
  return scheduled;
}

/** Total length of a sound, ms. */
export const soundDurationMs = (kind: SoundKind): number => tones[kind].reduce((total, note) => total + note.durationMs + note.gapMs, 0);
