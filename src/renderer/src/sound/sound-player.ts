import { scheduleSound, type SoundKind } from './tones';

export interface SoundPlayer {
  play(kind: SoundKind, volume: number): void;
  close(): Promise<void>;
}

/** Short fades at each end of a note: an abrupt start or stop clicks audibly. */
const fadeSeconds = 0.008;

/**
 * Plays the outcome sounds through Web Audio. The AudioContext is made on first use: browsers
 * start a context made before any key press suspended, and a scan is a key press.
 */
export function createSoundPlayer(createContext: () => AudioContext = () => new AudioContext()): SoundPlayer {
  let context: AudioContext | null = null;

  const play = (kind: SoundKind, volume: number) => {
    const notes = scheduleSound(kind, volume);
    if (notes.length === 0) return;
    try {
      context ??= createContext();
    } catch {
      // No audio device: the screen still shows the outcome in colour, icon and words.
      return;
    }
    const audio = context;
    if (audio.state === 'suspended') void audio.resume().catch(() => undefined);
    const origin = audio.currentTime + 0.01;
    for (const note of notes) {
      const oscillator = audio.createOscillator();
      const envelope = audio.createGain();
      oscillator.type = note.waveform;
      oscillator.frequency.setValueAtTime(note.frequency, origin + note.start);
      if (note.endFrequency !== note.frequency) {
        oscillator.frequency.linearRampToValueAtTime(note.endFrequency, origin + note.stop);
      }
      envelope.gain.setValueAtTime(0, origin + note.start);
      envelope.gain.linearRampToValueAtTime(note.gain, origin + note.start + fadeSeconds);
      envelope.gain.setValueAtTime(note.gain, origin + note.stop - fadeSeconds);
      envelope.gain.linearRampToValueAtTime(0, origin + note.stop);
      oscillator.connect(envelope).connect(audio.destination);
      oscillator.start(origin + note.start);
      oscillator.stop(origin + note.stop);
    }
  };

  return {
    play,
    async close() {
      await context?.close().catch(() => undefined);
      context = null;
    },
  };
}
