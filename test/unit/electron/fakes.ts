import { EventEmitter } from 'node:events';
import { createLogger, type Logger } from '../../../src/main/logging/logger';

/** A logger whose lines stay in memory, so a test can read what the shell would have logged. */
export function memoryLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  return { logger: createLogger((line) => lines.push(line), { level: 'debug' }), lines };
}

/** An Electron-style event: records whether a handler called preventDefault(). */
export class FakeEvent {
  defaultPrevented = false;
  constructor(readonly url = '') {}
  preventDefault(): void {
    this.defaultPrevented = true;
  }
}

/** A hand-written stand-in for the parts of Electron's WebContents the hardening touches. */
export class FakeWebContents extends EventEmitter {
  windowOpenHandler: ((details: { url: string }) => { action: string }) | null = null;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.windowOpenHandler = handler;
  }
}
