/**
 * What a PostgreSQL failure means for the bench: a connection that could not be made or was lost,
 * and a password the server no longer takes (changed mid-day, seen when the pool opens a new
 * connection), take the bench offline with the reason the screen shows; a failing statement does not.
 */
import { describe, expect, it } from 'vitest';
import { parseStoreAddress } from '../../../src/main/store/engine/postgres-config';
import { fromPostgresError } from '../../../src/main/store/engine/store-errors';
import { newerSchemaError } from '../../../src/main/store/newer-schema';
import { storeProblemOf } from '../../../src/main/store/store-choice';
import { isUnreachable } from '../../../src/main/store/store-health';

const address = parseStoreAddress('postgres://station@db.warehouse:5432/packing');
const pgError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('a PostgreSQL failure as the bench reads it', () => {
  it('reads a password refused mid-day as the store out of reach, for the reason "password"', () => {
    const refused = fromPostgresError(pgError('28P01', 'password authentication failed for user "station"'));
    expect(isUnreachable(refused)).toBe(true);
    expect(storeProblemOf(refused, address)).toBe('password');
  });

  it('reads a lost connection as unreachable and a failing statement as neither', () => {
    const lost = fromPostgresError(pgError('57P01', 'terminating connection due to administrator command'));
    expect(isUnreachable(lost)).toBe(true);
    expect(storeProblemOf(lost, address)).toBe('unreachable');
    const statement = fromPostgresError(pgError('42P01', 'relation "orderz" does not exist'));
    expect(isUnreachable(statement)).toBe(false);
  });

  it('reads the pool giving up on a new connection (the server restarting under load) as unreachable, not an internal error', () => {
    // node-postgres's own words when connectionTimeoutMillis passes before a connection is made.
    const timedOut = fromPostgresError(new Error('timeout exceeded when trying to connect'));
    expect(isUnreachable(timedOut)).toBe(true);
    expect(storeProblemOf(timedOut, address)).toBe('unreachable');
  });

  it('reads a store migrated past what the station knows as the problem "schema"', () => {
    expect(storeProblemOf(newerSchemaError('shared', 17, 16), address)).toBe('schema');
  });
});
