/**
 * A store a newer station migrated is never written by an older one: the bench's own file and the
 * shared PostgreSQL store both refuse it with the same code, saying which version the store has
 * and which this station knows, so the screen can tell the person at the bench to update it.
 */
import { StationError } from '../../shared/errors';

export function newerSchemaError(subject: 'bench-file' | 'shared', storeVersion: number, knownVersion: number): StationError {
  const message =
    subject === 'bench-file'
      ? `This bench's data file is at schema version ${storeVersion}, newer than this station knows (${knownVersion}): update this bench. Nothing in the file was changed.`
      : `The shared store's schema is at version ${storeVersion}, newer than this station knows (${knownVersion}): update this station.`;
  return new StationError('STORE_NEWER_THAN_STATION', message, undefined, { facts: { subject, storeVersion, knownVersion } });
}
