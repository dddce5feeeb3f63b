import { closeSync, existsSync, fstatSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { LogSink } from './logger';

export interface RotatingFileSinkOptions {
  /** The logs folder, normally `<userData>/logs`. */
  directory: string;
  /** Name of the current file; rotated files insert a number before the extension (station.1.log). */
  fileName?: string;
  /** Size at which the current file is rotated. */
  maxBytes?: number;
  /** How many files are kept in all, the current one included. */
  maxFiles?: number;
  /** Where a failure to write is reported (once per failure streak); the sink itself never throws. */
  onError?: (error: unknown) => void;
}

export interface RotatingFileSink {
  readonly write: LogSink;
  /** The log files that exist, newest first. */
  files(): string[];
  close(): void;
}

const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
const DEFAULT_MAX_FILES = 5;

/**
 * Appends one line per log record to a file in the logs folder and rotates it by size, keeping a
 * bounded number of files, so a bench that runs for months never fills its disk. Writes are
 * synchronous: a line is on disk before the call returns, so the last lines before a crash survive.
 */
export function createRotatingFileSink(options: RotatingFileSinkOptions): RotatingFileSink {
  const fileName = options.fileName ?? 'station.log';
  const maxBytes = Math.max(1024, options.maxBytes ?? DEFAULT_MAX_BYTES);
  const maxFiles = Math.max(1, Math.floor(options.maxFiles ?? DEFAULT_MAX_FILES));
  const dot = fileName.lastIndexOf('.');
  const stem = dot > 0 ? fileName.slice(0, dot) : fileName;
  const extension = dot > 0 ? fileName.slice(dot) : '';
  const pathOf = (index: number) => join(options.directory, index === 0 ? fileName : `${stem}.${index}${extension}`);

  let fd: number | null = null;
  let size = 0;
  let failing = false;

  const open = (): number => {
    mkdirSync(options.directory, { recursive: true });
    const handle = openSync(pathOf(0), 'a', 0o600);
    size = fstatSync(handle).size;
    fd = handle;
    return handle;
  };

  const closeFile = () => {
    if (fd !== null) closeSync(fd);
    fd = null;
  };

  const rotate = (): number => {
    closeFile();
    rmSync(pathOf(maxFiles - 1), { force: true });
    for (let index = maxFiles - 2; index >= 0; index -= 1) {
      if (existsSync(pathOf(index))) renameSync(pathOf(index), pathOf(index + 1));
    }
    return open();
  };

  const write: LogSink = (line) => {
    try {
      let handle = fd ?? open();
      const bytes = Buffer.from(`${line}\n`, 'utf8');
      if (size > 0 && size + bytes.length > maxBytes) handle = rotate();
      writeSync(handle, bytes);
      size += bytes.length;
      failing = false;
    } catch (error) {
      // A full disk or a locked file must not stop printing; report it once per streak.
      closeFile();
      if (!failing) options.onError?.(error);
      failing = true;
    }
  };

  return {
    write,
    files() {
      const found: string[] = [];
      for (let index = 0; index < maxFiles; index += 1) if (existsSync(pathOf(index))) found.push(pathOf(index));
      return found;
    },
    close: closeFile,
  };
}
