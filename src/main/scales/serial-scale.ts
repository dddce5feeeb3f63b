/**
 * A scale on a serial port (RS-232 or a USB serial adapter), through the `serialport` package.
 * MT-SICS scales are asked `SI` (the weight now, steady or not) every `pollMs`, one question at a
 * time; a question left unanswered for `answerTimeoutMs` ends the connection (the scale is off or
 * on another port). A Toledo continuous scale talks by itself; silence for `silenceMs` ends it.
 * Every byte goes through the protocol's parser, and a line or frame is bounded in length.
 */
import type { ScaleSetting } from '../../shared/contract/scales';
import { mtSicsCommands, mtSicsMaxLine, parseMtSicsLine } from '../../shared/scales/mt-sics';
import { condition } from '../../shared/scales/scale-reading';
import { ToledoStreamReader } from '../../shared/scales/toledo-continuous';
import type { ScaleConnection, ScaleListener } from './scale-connection';

export interface SerialScaleTiming {
  pollMs: number;
  answerTimeoutMs: number;
  silenceMs: number;
}

export const defaultSerialScaleTiming: SerialScaleTiming = { pollMs: 200, answerTimeoutMs: 1500, silenceMs: 2000 };

type SerialSetting = Extract<ScaleSetting, { kind: 'serial' }>;

export async function openSerialScale(setting: SerialSetting, listener: ScaleListener, timing: SerialScaleTiming = defaultSerialScaleTiming): Promise<ScaleConnection> {
  const { SerialPort } = await import('serialport');
  const port = new SerialPort({ path: setting.path, baudRate: setting.baudRate, dataBits: setting.dataBits, parity: setting.parity, stopBits: 1, autoOpen: false });
  await new Promise<void>((resolve, reject) => port.open((error) => (error ? reject(error) : resolve())));
  let closed = false;
  let lastHeard = Date.now();
  let askedAt: number | null = null;
  const end = (detail: string) => {
    if (closed) return;
    closed = true;
    clearInterval(timer);
    port.removeAllListeners('data');
    if (port.isOpen) port.close(() => undefined);
    listener.ended(detail);
  };

  let line = '';
  const toledo = new ToledoStreamReader(setting.checksum);
  port.on('data', (chunk: Buffer) => {
    if (closed) return;
    lastHeard = Date.now();
    if (setting.protocol === 'toledo-continuous') {
      for (const sample of toledo.push(chunk)) listener.sample(sample);
      return;
    }
    for (const byte of chunk) {
      if (byte === 0x0a) {
        const text = line.replace(/\r$/, '');
        line = '';
        askedAt = null;
        if (text.length > 0) listener.sample(parseMtSicsLine(text));
      } else if (line.length > mtSicsMaxLine) {
        // A line that never ends is not MT-SICS: say so once per overlong line and start again.
        listener.sample(condition('bad-data', 'an answer line without an end'));
        line = '';
      } else {
        line += String.fromCharCode(byte);
      }
    }
  });
  port.on('error', (error: Error) => end(error.message));
  port.on('close', () => end('the port closed'));

  const timer = setInterval(() => {
    const now = Date.now();
    if (setting.protocol === 'toledo-continuous') {
      if (now - lastHeard > timing.silenceMs) end(`no data for ${timing.silenceMs} ms`);
      return;
    }
    if (askedAt !== null) {
      if (now - askedAt > timing.answerTimeoutMs) end(`no answer to SI within ${timing.answerTimeoutMs} ms`);
      return;
    }
    askedAt = now;
    port.write(mtSicsCommands.immediate);
  }, timing.pollMs);

  return {
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      port.removeAllListeners('data');
      if (port.isOpen) await new Promise<void>((resolve) => port.close(() => resolve()));
    },
  };
}
