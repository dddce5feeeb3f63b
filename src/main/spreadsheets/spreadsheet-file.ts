/**
 * The first step of every spreadsheet import (manifest, upload, orders to ship): find the file's
 * size and format before the bounded worker (spreadsheet-parser.ts) reads a row. Only a regular file is
 * opened (a pipe or a device could block the read), and only its first 64 KiB are read here.
 * A file refused as a whole is refused in one vocabulary for all three (IMPORT_FAILED with the
 * subject the screen words, the same for every import), with an English message for the log and CLI.
 */
import { open, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { UploadFileProblem } from '../../shared/contract/upload';
import { StationError, type ErrorFacts } from '../../shared/errors';
import type { ParserSource } from './spreadsheet-parser-protocol';
import { detectFormat, isCompoundFile, type SheetFormat } from './spreadsheet-format';

export type SpreadsheetSource = { kind: 'path'; path: string } | { kind: 'bytes'; fileName: string; bytes: Buffer };

export interface OpenedSpreadsheet<Format extends SheetFormat | 'xls' = SheetFormat | 'xls'> {
  fileName: string;
  format: Format;
  source: ParserSource;
  size: number;
}

export type SpreadsheetProblemCode = 'not-a-file' | 'unreadable' | 'empty' | 'too-big' | 'unsupported';

export class SpreadsheetOpenProblem extends Error {
  constructor(
    readonly code: SpreadsheetProblemCode,
    readonly fileName: string,
    message: string,
    readonly size: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'SpreadsheetOpenProblem';
  }
}

const headBytes = 64 * 1024;

export interface OpenOptions {
  maxBytes: number;
  /** Lets an old Excel 97–2003 workbook through (only the upload reads those). */
  acceptXls: boolean;
  /** Refuses a file of no bytes at once (the manifest import says so later, as a file with no header). */
  refuseEmpty: boolean;
}

/** Opens a spreadsheet of at most `options.maxBytes` and tells its format from its first bytes. */
export async function openSpreadsheet(input: SpreadsheetSource, options: OpenOptions & { acceptXls: false }): Promise<OpenedSpreadsheet<SheetFormat>>;
export async function openSpreadsheet(input: SpreadsheetSource, options: OpenOptions): Promise<OpenedSpreadsheet>;
export async function openSpreadsheet(input: SpreadsheetSource, options: OpenOptions): Promise<OpenedSpreadsheet> {
  const fileName = input.kind === 'path' ? basename(input.path) : input.fileName;
  let size: number;
  let head: Uint8Array;
  if (input.kind === 'bytes') {
    size = input.bytes.length;
    head = input.bytes.subarray(0, headBytes);
  } else {
    try {
      const info = await stat(input.path);
      if (!info.isFile()) throw new SpreadsheetOpenProblem('not-a-file', fileName, `${fileName} is not a file.`, info.size);
      size = info.size;
      if (size === 0 && options.refuseEmpty) throw new SpreadsheetOpenProblem('empty', fileName, `${fileName} is empty.`, 0);
      if (size > options.maxBytes) throw new SpreadsheetOpenProblem('too-big', fileName, `${fileName} is too large.`, size);
      const handle = await open(input.path, 'r');
      try {
        const buffer = Buffer.alloc(Math.min(headBytes, size));
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
        head = buffer.subarray(0, bytesRead);
      } finally {
        await handle.close();
      }
    } catch (error) {
      if (error instanceof SpreadsheetOpenProblem) throw error;
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      throw new SpreadsheetOpenProblem('unreadable', fileName, `${fileName} could not be read (${code}).`, 0, { cause: error });
    }
  }
  if (size === 0 && options.refuseEmpty) throw new SpreadsheetOpenProblem('empty', fileName, `${fileName} is empty.`, 0);
  if (size > options.maxBytes) throw new SpreadsheetOpenProblem('too-big', fileName, `${fileName} is too large.`, size);
  const source: ParserSource = input.kind === 'path' ? { kind: 'path', path: input.path } : { kind: 'bytes', bytes: input.bytes };
  if (options.acceptXls && isCompoundFile(head)) return { fileName, format: 'xls', source, size };
  const format = detectFormat(head, fileName);
  if (typeof format === 'object') throw new SpreadsheetOpenProblem('unsupported', fileName, format.unsupported, size);
  return { fileName, format, source, size };
}

/** The file as a whole cannot be used (IMPORT_FAILED): nothing was stored or sent. */
export function fileProblem(subject: UploadFileProblem, fileName: string, message: string, options: { details?: string[]; cause?: unknown; facts?: ErrorFacts } = {}): StationError {
  return new StationError('IMPORT_FAILED', message, options.details, {
    ...(options.cause === undefined ? {} : { cause: options.cause }),
    facts: { subject, ...(fileName === '' ? {} : { file: fileName.slice(0, 255) }), ...options.facts },
  });
}

/** An opening problem as every import's screen words it; `maxBytes`: this import's limit. */
export function refusedFile(problem: SpreadsheetOpenProblem, maxBytes: number): StationError {
  const { fileName } = problem;
  const mb = maxBytes / 1024 / 1024;
  switch (problem.code) {
    case 'empty':
      return fileProblem('empty', fileName, `${fileName} is empty.`);
    case 'too-big':
      return fileProblem('too-big', fileName, `${fileName} is larger than ${mb} MB; split it into smaller files.`, {
        facts: { mb, sizeMb: Math.ceil((problem.size / 1024 / 1024) * 10) / 10 },
      });
    case 'unsupported':
      return fileProblem('unsupported', fileName, problem.message);
    default:
      return fileProblem('unreadable', fileName, problem.message, { cause: problem.cause ?? problem });
  }
}
