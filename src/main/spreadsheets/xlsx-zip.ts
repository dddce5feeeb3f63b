/**
 * Reads the parts of an XLSX workbook (a zip) without trusting what the zip says about them:
 * the central directory is read for where each part starts, and every part is inflated as a
 * stream whose output is counted, so a bomb that claims 1 KB and inflates to gigabytes stops at
 * the limit. Parts are read in the order the reader needs (shared text before the sheet),
 * whatever order they sit in the file.
 */
import { Inflate } from 'fflate';
import { open } from 'node:fs/promises';
import { SheetFileProblem, mib, type SheetLimits } from './sheet-limits';
import { errorText } from '../../shared/error-text';

/** Bytes at any position: a file on disk or an upload in memory. */
export interface RandomAccess {
  readonly size: number;
  read(position: number, length: number): Promise<Buffer>;
  close(): Promise<void>;
}

export function bytesAccess(bytes: Uint8Array): RandomAccess {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return {
    size: buffer.length,
    read: async (position, length) => buffer.subarray(position, Math.min(buffer.length, position + length)),
    close: async () => undefined,
  };
}

export async function fileAccess(path: string): Promise<RandomAccess> {
  const handle = await open(path, 'r');
  const { size } = await handle.stat();
  return {
    size,
    async read(position, length) {
      const buffer = Buffer.alloc(Math.max(0, Math.min(length, size - position)));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
      return buffer.subarray(0, bytesRead);
    },
    close: () => handle.close(),
  };
}

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  localHeaderOffset: number;
}

const maxEntries = 10_000;
const maxDirectoryBytes = 8 * 1024 * 1024;
const compressedChunkBytes = 16 * 1024;
/** Inflated output is handed on in slices this size, so no one piece of text grows large. */
export const sliceBytes = 64 * 1024;

export class ZipReader {
  private inflatedTotal = 0;

  private constructor(
    private readonly access: RandomAccess,
    private readonly entries: Map<string, ZipEntry>,
    private readonly limits: SheetLimits,
  ) {}

  static async open(access: RandomAccess, limits: SheetLimits): Promise<ZipReader> {
    const notZip = () => new SheetFileProblem('it is not a readable XLSX workbook (its zip directory is missing or damaged)');
    const tailLength = Math.min(access.size, 22 + 0xffff);
    const tail = await access.read(access.size - tailLength, tailLength);
    let end = -1;
    for (let at = tail.length - 22; at >= 0; at -= 1) {
      if (tail.readUInt32LE(at) === 0x06054b50) {
        end = at;
        break;
      }
    }
    if (end < 0) throw notZip();
    const count = tail.readUInt16LE(end + 10);
    const directorySize = tail.readUInt32LE(end + 12);
    const directoryOffset = tail.readUInt32LE(end + 16);
    if (count === 0xffff || directoryOffset === 0xffffffff) throw new SheetFileProblem('it is a ZIP64 workbook, larger than a manifest can be');
    if (count > maxEntries || directorySize > maxDirectoryBytes) throw new SheetFileProblem(`its zip directory lists more than ${maxEntries.toLocaleString('en')} parts`);
    if (directoryOffset + directorySize > access.size) throw notZip();
    const directory = await access.read(directoryOffset, directorySize);
    const entries = new Map<string, ZipEntry>();
    let at = 0;
    for (let n = 0; n < count; n += 1) {
      if (at + 46 > directory.length || directory.readUInt32LE(at) !== 0x02014b50) throw notZip();
      const flags = directory.readUInt16LE(at + 8);
      const method = directory.readUInt16LE(at + 10);
      const compressedSize = directory.readUInt32LE(at + 20);
      const nameLength = directory.readUInt16LE(at + 28);
      const extraLength = directory.readUInt16LE(at + 30);
      const commentLength = directory.readUInt16LE(at + 32);
      const localHeaderOffset = directory.readUInt32LE(at + 42);
      const name = directory.toString('utf8', at + 46, at + 46 + nameLength);
      if (flags & 1) throw new SheetFileProblem('it is password-protected; save it without a password and import that');
      entries.set(name.replace(/^\/+/, ''), { name, method, compressedSize, localHeaderOffset });
      at += 46 + nameLength + extraLength + commentLength;
    }
    return new ZipReader(access, entries, limits);
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /**
   * The inflated bytes of one part, slice by slice, counted against the per-part and total
   * limits as they come: nothing past a limit is ever inflated.
   */
  async *part(name: string): AsyncGenerator<Uint8Array> {
    const entry = this.entries.get(name);
    if (!entry) throw new SheetFileProblem(`it has no ${name}, which every XLSX workbook has`);
    if (entry.method !== 0 && entry.method !== 8) throw new SheetFileProblem(`its part ${name} is packed in a way XLSX does not use (method ${entry.method})`);
    const header = await this.access.read(entry.localHeaderOffset, 30);
    if (header.length < 30 || header.readUInt32LE(0) !== 0x04034b50) throw new SheetFileProblem(`its part ${name} is damaged`);
    const dataStart = entry.localHeaderOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
    const dataEnd = Math.min(this.access.size, dataStart + entry.compressedSize);

    let partBytes = 0;
    let pending: Uint8Array[] = [];
    const take = (chunk: Uint8Array) => {
      partBytes += chunk.length;
      this.inflatedTotal += chunk.length;
      if (partBytes > this.limits.maxPartBytes) throw new SheetFileProblem(describePart(name, `unpacks to more than ${mib(this.limits.maxPartBytes)}`));
      if (this.inflatedTotal > this.limits.maxInflatedBytes) throw new SheetFileProblem(`it unpacks to more than ${mib(this.limits.maxInflatedBytes)} in all`);
      for (let at = 0; at < chunk.length; at += sliceBytes) pending.push(chunk.subarray(at, Math.min(chunk.length, at + sliceBytes)));
    };
    const inflater = entry.method === 8 ? new Inflate((chunk) => take(chunk)) : null;
    for (let position = dataStart; position < dataEnd; position += compressedChunkBytes) {
      const compressed = await this.access.read(position, Math.min(compressedChunkBytes, dataEnd - position));
      if (compressed.length === 0) break;
      const last = position + compressed.length >= dataEnd;
      try {
        if (inflater) inflater.push(compressed, last);
        else take(compressed);
      } catch (error) {
        if (error instanceof SheetFileProblem) throw error;
        throw new SheetFileProblem(`its part ${name} is damaged (${errorText(error)})`);
      }
      const ready = pending;
      pending = [];
      yield* ready;
    }
  }
}

function describePart(name: string, what: string): string {
  if (/sharedStrings\.xml$/i.test(name)) return `the file's shared text ${what}`;
  if (/worksheets\//i.test(name)) return `its first worksheet ${what}`;
  return `its part ${name} ${what}`;
}
