/**
 * An error no caller caught is logged with its stack, and the station goes on serving: the host's
 * process is not ended by a promise nobody awaited.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/main/logging/logger';
import { logStrayErrors } from '../../../src/main/logging/stray-errors';

describe('stray errors', () => {
  it('logs a rejection nobody handled, with its message and the place it came from', () => {
    const lines: string[] = [];
    const host = new EventEmitter();
    logStrayErrors(createLogger((line) => lines.push(line)), host as unknown as NodeJS.Process);

    function renewLease(): never {
      throw new Error('The store cannot be reached: connect ECONNREFUSED 127.0.0.1:5432');
    }
    let thrown: unknown;
    try {
      renewLease();
    } catch (error) {
      thrown = error;
    }
    host.emit('unhandledRejection', thrown);
    host.emit('uncaughtException', new TypeError("Cannot read properties of null (reading 'id')"));

    const logged = lines.map((line) => JSON.parse(line) as { level: string; message: string; error: { message: string }; stack: string });
    expect(logged.map((line) => [line.level, line.message])).toEqual([
      ['error', 'unhandled rejection'],
      ['error', 'uncaught exception'],
    ]);
    expect(logged[0]?.error.message).toBe('The store cannot be reached: connect ECONNREFUSED 127.0.0.1:5432');
    expect(logged[0]?.stack).toContain('renewLease');
    expect(logged[1]?.error.message).toBe("Cannot read properties of null (reading 'id')");
  });

  it('counts them, and a log sink that throws does not end the process', () => {
    const host = new EventEmitter();
    const strayErrors = logStrayErrors(
      createLogger(() => {
        throw new Error('disk full');
      }),
      host,
    );
    expect(strayErrors.count()).toBe(0);
    host.emit('uncaughtException', new Error('first'));
    host.emit('unhandledRejection', 'a reason that is not an Error');
    expect(strayErrors.count()).toBe(2);
  });
});
