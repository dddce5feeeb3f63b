/**
 * Reads the certificate authority file a store address names (`sslrootcert`). The path comes
 * from whoever set the address, so the file is read as untrusted: asynchronously (the libuv
 * thread pool, never the main thread), only when it is a regular file (a pipe, `/dev/zero` or a
 * socket is refused before a byte is read), at most `maxBytes`, within `timeoutMs`, and only when
 * it holds a PEM certificate. A file that fails any of these gives a StationError naming why; the
 * caller decides what that means (a refused setting, or a store that stays offline).
 */
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { StationError } from '../../../shared/errors';

/** Far beyond a bundle of a few authorities (one PEM certificate is 1–2 KiB). */
export const maxCertificateFileBytes = 256 * 1024;
export const certificateReadTimeoutMs = 2_000;

export interface CertificateReadOptions {
  maxBytes?: number;
  timeoutMs?: number;
}

/** Why a certificate file cannot be used: `reason` is a short English phrase for facts and logs. */
export function certificateFileError(file: string, reason: string, cause?: unknown): StationError {
  return new StationError('INVALID_INPUT', `The certificate authority file ${file} cannot be used: ${reason}.`, [file, reason], {
    cause,
    facts: { field: 'sslrootcert', file, reason },
  });
}

export async function readCertificateFile(file: string, options: CertificateReadOptions = {}): Promise<string> {
  const maxBytes = options.maxBytes ?? maxCertificateFileBytes;
  const timeoutMs = options.timeoutMs ?? certificateReadTimeoutMs;
  let timer: NodeJS.Timeout | undefined;
  let handle: FileHandle | undefined;
  let timedOut = false;
  const read = (async () => {
    // O_NONBLOCK: opening a pipe with no writer would otherwise wait for one (holding a pool thread).
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
    if (timedOut) return '';
    const info = await handle.stat();
    if (!info.isFile()) throw certificateFileError(file, 'it is not a regular file');
    if (info.size > maxBytes) throw certificateFileError(file, `it is larger than ${Math.round(maxBytes / 1024)} KiB`);
    // One byte more than allowed tells a file that grew since stat apart from one that fits.
    const buffer = Buffer.alloc(maxBytes + 1);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0 || timedOut) break;
      length += bytesRead;
    }
    if (length > maxBytes) throw certificateFileError(file, `it is larger than ${Math.round(maxBytes / 1024)} KiB`);
    const text = buffer.subarray(0, length).toString('utf8');
    if (!text.includes('-----BEGIN CERTIFICATE-----')) throw certificateFileError(file, 'it holds no PEM certificate');
    return text;
  })();
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      timedOut = true;
      reject(certificateFileError(file, `it was not read within ${timeoutMs} ms`));
    }, timeoutMs);
  });
  try {
    return await Promise.race([read, deadline]);
  } catch (error) {
    if (error instanceof StationError) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw certificateFileError(file, `it cannot be opened (${code})`, error);
  } finally {
    clearTimeout(timer);
    // A read still running after the deadline closes the file when it ends.
    read.catch(() => undefined).finally(() => void handle?.close().catch(() => undefined));
  }
}
