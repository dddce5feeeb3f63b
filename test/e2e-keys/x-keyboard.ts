import { spawn, execFile, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { createInterface, type Interface } from 'node:readline';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { keyboardCharts, typingKeys } from '../support/keyboard-charts';

/**
 * A keyboard on an X server of the test's own: Xvfb on a free display, its layout set with
 * setxkbmap, keys pressed by keycode through XTEST (xtest-keys.py) — the way a USB keyboard or a
 * keyboard-wedge scanner reaches Chromium on Linux. Nothing here knows the station's keyboard
 * tables: what each device presses comes from the layouts' published charts
 * (test/support/keyboard-charts.ts).
 */

const run = promisify(execFile);

export interface XServer {
  /** `:N`, for DISPLAY. */
  display: string;
  stop(): Promise<void>;
}

/** Starts Xvfb on the first free display (it picks and reports the number itself). */
export async function startXvfb(): Promise<XServer> {
  const xvfb = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
  const number = await new Promise<string>((resolve, reject) => {
    let text = '';
    const fd = xvfb.stdio[3] as NodeJS.ReadableStream;
    fd.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('\n')) resolve(text.trim());
    });
    xvfb.once('error', (error) => reject(new Error(`Xvfb could not start (Debian package xvfb): ${error.message}`)));
    xvfb.once('exit', (code) => reject(new Error(`Xvfb ended at once (exit ${code})`)));
  });
  return {
    display: `:${number}`,
    stop: async () => {
      if (xvfb.exitCode !== null) return;
      xvfb.kill('SIGTERM');
      await once(xvfb, 'exit');
    },
  };
}

/** The X keycode of each key (evdev's number + 8, the same on every PC), by `KeyboardEvent.code`. */
const keycodes: Record<string, number> = {
  Backquote: 49,
  Minus: 20,
  Equal: 21,
  Tab: 23,
  BracketLeft: 34,
  BracketRight: 35,
  Enter: 36,
  ControlLeft: 37,
  Semicolon: 47,
  Quote: 48,
  ShiftLeft: 50,
  Backslash: 51,
  Comma: 59,
  Period: 60,
  Slash: 61,
  AltLeft: 64,
  Space: 65,
  CapsLock: 66,
  NumLock: 77,
  IntlBackslash: 94,
  ...Object.fromEntries([...'123456789'].map((digit, index) => [`Digit${digit}`, 10 + index])),
  Digit0: 19,
  ...Object.fromEntries([...'QWERTYUIOP'].map((letter, index) => [`Key${letter}`, 24 + index])),
  ...Object.fromEntries([...'ASDFGHJKL'].map((letter, index) => [`Key${letter}`, 38 + index])),
  ...Object.fromEntries([...'ZXCVBNM'].map((letter, index) => [`Key${letter}`, 52 + index])),
  Numpad7: 79,
  Numpad8: 80,
  Numpad9: 81,
  Numpad4: 83,
  Numpad5: 84,
  Numpad6: 85,
  Numpad1: 87,
  Numpad2: 88,
  Numpad3: 89,
  Numpad0: 90,
};

const keycode = (code: string): number => {
  const found = keycodes[code];
  if (found === undefined) throw new Error(`no keycode for ${code}`);
  return found;
};

export interface Stroke {
  code: string;
  shift: boolean;
}

/** A scanner at its factory setting: it presses the keys a US keyboard types each character with. */
export const usKeys = typingKeys(keyboardCharts.us);

/** A German (QWERTZ) keyboard, as a person at a German bench types. */
export const germanKeys = typingKeys(keyboardCharts.de);

/** A scanner set to the French (AZERTY) keyboard. */
export const frenchKeys = typingKeys(keyboardCharts.fr);

type KeyEvent = [kind: 'down' | 'up', keycode: number, delayMs: number];

/** How a device sends its keys: a scanner a few ms apart, a person slower. */
export interface Pace {
  /** Between one key event and the next, ms. */
  eventGapMs: number;
}

export const scannerPace: Pace = { eventGapMs: 3 };
export const personPace: Pace = { eventGapMs: 70 };

export class XKeyboard {
  private constructor(
    private readonly display: string,
    private readonly helper: ChildProcessWithoutNullStreams,
    private readonly answers: Interface,
  ) {}

  static async open(server: XServer): Promise<XKeyboard> {
    const helper = spawn('/usr/bin/python3', [join(import.meta.dirname, 'xtest-keys.py')], { env: { ...process.env, DISPLAY: server.display }, stdio: 'pipe' });
    helper.once('error', (error) => {
      throw new Error(`the XTEST helper could not start (Debian package python3-xlib): ${error.message}`);
    });
    return new XKeyboard(server.display, helper, createInterface({ input: helper.stdout }));
  }

  private async request(line: unknown): Promise<void> {
    const answer = once(this.answers, 'line');
    this.helper.stdin.write(`${JSON.stringify(line)}\n`);
    const [text] = (await answer) as [string];
    if (text !== 'done') throw new Error(`the XTEST helper answered ${text}`);
  }

  /** The PC's keyboard layout, as a bench's IT would set it. */
  async setLayout(layout: string): Promise<void> {
    await run('setxkbmap', ['-display', this.display, layout]);
  }

  /** Moves the pointer over the browser's page: with no window manager, keys go to the window under it. */
  async focusAt(x: number, y: number): Promise<void> {
    await this.request({ focus: [x, y] });
  }

  /** Presses and releases keys by their codes, all held together (a lock key, Ctrl+]). */
  async chord(codes: string[], pace: Pace = scannerPace): Promise<void> {
    await this.request(this.chordEvents(codes, pace));
  }

  /** The events of keys pressed together and released in reverse (Ctrl+] inside a scan). */
  chordEvents(codes: string[], pace: Pace): KeyEvent[] {
    return [...codes.map((code): KeyEvent => ['down', keycode(code), pace.eventGapMs]), ...[...codes].reverse().map((code): KeyEvent => ['up', keycode(code), pace.eventGapMs])];
  }

  /** Types text with a device's keys (Shift held for the characters that need it), then Enter. */
  async type(text: string, keys: Map<string, Stroke>, pace: Pace, options: { enter?: boolean } = {}): Promise<void> {
    await this.request([...this.strokeEvents(text, keys, pace), ...(options.enter === false ? [] : this.tapEvents('Enter', pace))]);
  }

  /** The events of a text typed with a device's keys. */
  strokeEvents(text: string, keys: Map<string, Stroke>, pace: Pace): KeyEvent[] {
    return [...text].flatMap((character) => {
      const stroke = keys.get(character);
      if (!stroke) throw new Error(`this device has no key for ${JSON.stringify(character)}`);
      const tap = this.tapEvents(stroke.code, pace);
      return stroke.shift ? [['down', keycode('ShiftLeft'), pace.eventGapMs] as KeyEvent, ...tap, ['up', keycode('ShiftLeft'), pace.eventGapMs] as KeyEvent] : tap;
    });
  }

  tapEvents(code: string, pace: Pace): KeyEvent[] {
    return [
      ['down', keycode(code), pace.eventGapMs],
      ['up', keycode(code), pace.eventGapMs],
    ];
  }

  /** The events of one character typed as Alt held down while its decimal code is typed on the numpad. */
  altCodeEvents(digits: string, pace: Pace): KeyEvent[] {
    return [['down', keycode('AltLeft'), pace.eventGapMs], ...[...digits].flatMap((digit) => this.tapEvents(`Numpad${digit}`, pace)), ['up', keycode('AltLeft'), pace.eventGapMs]];
  }

  /** Types text as a scanner in "Alt + keypad" mode: each character its code, with a leading 0 (Windows-1252) or without (the OEM code page). */
  async typeAltCodes(text: string, pace: Pace, leadingZero: boolean): Promise<void> {
    const events = [...text].flatMap((character) => {
      const code = String(character.charCodeAt(0));
      return this.altCodeEvents(leadingZero ? `0${code.padStart(3, '0')}` : code, pace);
    });
    await this.request([...events, ...this.tapEvents('Enter', pace)]);
  }

  /** Sends events built with the methods above, in one go. */
  async send(events: KeyEvent[]): Promise<void> {
    await this.request(events);
  }

  async close(): Promise<void> {
    this.helper.stdin.end();
    if (this.helper.exitCode === null) await once(this.helper, 'exit');
  }
}
