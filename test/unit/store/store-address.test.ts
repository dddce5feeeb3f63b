import { describe, expect, it } from 'vitest';
import { StationError } from '../../../src/shared/errors';
import { keychainAccount, parseStoreAddress, tlsOptions } from '../../../src/main/store/engine/postgres-config';

const refusal = (text: string) => {
  try {
    parseStoreAddress(text);
  } catch (error) {
    expect(error).toBeInstanceOf(StationError);
    return { code: (error as StationError).code, reason: (error as StationError).details?.[0], facts: (error as StationError).facts };
  }
  throw new Error(`accepted ${text}`);
};

describe('the shared store address an admin enters', () => {
  it('reads user, host, port, database and TLS mode, defaulting to port 5432 and verify-full', () => {
    expect(parseStoreAddress('postgres://station@db.warehouse.lan/packing')).toEqual({
      host: 'db.warehouse.lan', port: 5432, database: 'packing', user: 'station', tls: 'verify-full', caFile: null,
    });
    expect(parseStoreAddress('postgresql://bench%20user@10.0.0.5:6432/packing?sslmode=require')).toEqual({
      host: '10.0.0.5', port: 6432, database: 'packing', user: 'bench user', tls: 'require', caFile: null,
    });
    expect(parseStoreAddress('postgres://station@[::1]:5433/packing?sslmode=verify-full&sslrootcert=/etc/station/ca.pem')).toMatchObject({
      host: '::1', caFile: '/etc/station/ca.pem',
    });
  });

  it('refuses an address carrying a password: the password goes to the keychain (the screen says so)', () => {
    expect(refusal('postgres://station:secret@db/packing')).toEqual({
      code: 'INVALID_INPUT',
      reason: 'it contains a password: enter the password separately, it is kept in the keychain',
      facts: { subject: 'store-address-password' },
    });
    // Whatever else is wrong with it: the password is named first.
    expect(refusal('postgres://:secret@db/').facts).toEqual({ subject: 'store-address-password' });
  });

  it('names for the screen what is missing or wrong in an address', () => {
    expect(refusal('mysql://station@db/packing').facts).toEqual({ subject: 'store-address-form' });
    expect(refusal('db.warehouse.lan').facts).toEqual({ subject: 'store-address-form' });
    expect(refusal('postgres://db/packing').facts).toEqual({ subject: 'store-address-user' });
    expect(refusal('postgres://station@db/').facts).toEqual({ subject: 'store-address-database' });
    expect(refusal('postgres://station@db/packing?sslmode=prefer').facts).toEqual({ subject: 'store-address-sslmode', value: 'prefer' });
    expect(refusal('postgres://station@db/packing?host=evil').facts).toEqual({ subject: 'store-address-option', option: 'host' });
  });

  it('refuses what is not a complete PostgreSQL address', () => {
    expect(refusal('mysql://station@db/packing').reason).toBe('it must start with postgres://');
    expect(refusal('postgres://db/packing').reason).toBe('it names no user (postgres://user@host/database)');
    expect(refusal('postgres://station@db/').reason).toBe('it names no database (postgres://user@host/database)');
    expect(refusal('postgres://station@db/packing?sslmode=prefer').reason).toBe('sslmode must be disable, require or verify-full, not prefer');
    expect(refusal('postgres://station@db/packing?host=evil').reason).toBe('unknown option host');
    expect(refusal('db.warehouse.lan').reason).toBe('not an address (postgres://user@host:port/database)');
  });

  it('refuses a % that starts no encoded character in the user or database as INVALID_INPUT, not a crash (found by fuzzing)', () => {
    expect(refusal('postgres://st%E0tion@db/packing')).toEqual({
      code: 'INVALID_INPUT',
      reason: 'its user name has a % that does not start an encoded character (write % itself as %25)',
      facts: { subject: 'store-address-user' },
    });
    expect(refusal('postgres://station@db/pack%ing').facts).toEqual({ subject: 'store-address-database' });
    expect(refusal('postgres://station@db/pack%ing').reason).toBe('its database name has a % that does not start an encoded character (write % itself as %25)');
    expect(refusal('postgres://[sE:@%/%@?sslmode=bogus').code).toBe('INVALID_INPUT');
  });

  it('files the password under an account naming user, server and database, so it is sent only there', () => {
    const address = parseStoreAddress('postgres://station@db.warehouse.lan:5432/packing');
    expect(keychainAccount(address)).toBe('store-password:postgres://station@db.warehouse.lan:5432/packing');
    expect(keychainAccount({ ...address, host: 'other.lan' })).not.toBe(keychainAccount(address));
  });

  it('asks node-postgres to check the certificate in verify-full (with the CA given), not in require, and for no TLS in disable', () => {
    expect(tlsOptions({ tls: 'verify-full', ca: 'PEM' })).toEqual({ rejectUnauthorized: true, ca: 'PEM' });
    expect(tlsOptions({ tls: 'verify-full' })).toEqual({ rejectUnauthorized: true });
    expect(tlsOptions({ tls: 'require' })).toEqual({ rejectUnauthorized: false });
    expect(tlsOptions({ tls: 'disable' })).toBe(false);
  });
});
