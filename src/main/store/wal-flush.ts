/**
 * Takes commits made without waiting for the disk (relaxDiskWait) to the disk in the
 * background: SQLite's write-ahead log is one file, appended to in commit order, so flushing it
 * flushes every commit written to it so far — what `synchronous = FULL` does at each commit, here
 * on a worker thread of Node's pool while the station waits for the network.
 */
import { open } from 'node:fs/promises';
import { StationError } from '../../shared/errors';
import { errorText } from '../../shared/error-text';

export type FlushToDisk = () => Promise<void>;

export function createWalFlush(databasePath: string): FlushToDisk {
  // A database in memory has nothing on disk to wait for.
  if (databasePath === ':memory:') return () => Promise.resolve();
  const walPath = `${databasePath}-wal`;
  return async () => {
    try {
      // Opened for writing: Windows flushes only through a handle that may write.
      const file = await open(walPath, 'r+');
      try {
        await file.sync();
      } finally {
        await file.close();
      }
    } catch (error) {
      throw new StationError('INTERNAL', `The station could not write its journal to disk (${errorText(error)}), so it sent nothing. Check the disk of this computer.`, [walPath]);
    }
  };
}
