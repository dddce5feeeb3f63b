/**
 * The shared store's address as an admin types it (Setup, `settings store`, `webhooks serve
 * --store`): for any text, reading it gives an address or refuses it as INVALID_INPUT naming
 * what is wrong, never another error, within milliseconds, and never keeps a password; an
 * address written from its parts (any user, host, port, database, TLS mode and CA file, encoded
 * as a URL does) reads back to those parts, and to the same keychain entry (a round trip).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keychainAccount, parseStoreAddress } from '../../src/main/store/engine/postgres-config';
import { StationError } from '../../src/shared/errors';
import { fuzz, timed, quickMs } from './budget';

const addressText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 120 }),
  fc
    .tuple(
      fc.constantFrom('postgres://', 'postgresql://', 'http://', 'postgres:', ''),
      fc.string({ unit: fc.constantFrom('u', 's', '%', '2', 'F', 'E', '0', '@', ':', '/', '?', '&', '=', '[', ']', '#', 'é', ' '), maxLength: 30 }),
      fc.constantFrom('', '?sslmode=disable', '?sslmode=require&sslrootcert=/ca.pem', '?sslmode=bogus', '?x=1', '?sslmode=verify-full&sslmode=disable'),
    )
    .map(([scheme, middle, query]) => `${scheme}${middle}${query}`),
);

describe('store addresses (fuzzed)', () => {
  it('reads any text as an address or refuses it as INVALID_INPUT, within 250 ms, and never keeps a password', () => {
    fc.assert(
      fc.property(addressText, (text) => {
        const { ms } = timed(() => {
          try {
            const address = parseStoreAddress(text);
            expect(address.port).toBeGreaterThanOrEqual(0);
            expect(address.port).toBeLessThanOrEqual(65_535);
            expect(['disable', 'require', 'verify-full']).toContain(address.tls);
            expect(address.database).not.toBe('');
            expect(JSON.stringify(address)).not.toMatch(/"password"/);
          } catch (error) {
            expect(error).toBeInstanceOf(StationError);
            expect((error as StationError).code).toBe('INVALID_INPUT');
          }
        });
        expect(ms).toBeLessThan(quickMs);
      }),
      fuzz(5000),
    );
  });

  it('reads back an address written from its parts, and files its password under the same keychain entry', () => {
    // A URL path cannot hold a name that is only dots ("." and ".." are its own steps), nor a slash.
    const name = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 16 }).filter((text) => !text.includes('/') && !/^\.{1,2}$/.test(text));
    const host = fc.oneof(fc.domain(), fc.ipV4(), fc.ipV6().map((ip) => `[${ip}]`));
    fc.assert(
      fc.property(name, host, fc.integer({ min: 1, max: 65_535 }), name, fc.constantFrom('disable', 'require', 'verify-full'), fc.option(fc.constantFrom('/etc/ssl/warehouse-ca.pem', 'C:\\certs\\ca.pem'), { nil: null }), (user, hostName, port, database, tls, caFile) => {
        const query = new URLSearchParams({ sslmode: tls, ...(caFile ? { sslrootcert: caFile } : {}) });
        const text = `postgres://${encodeURIComponent(user)}@${hostName}:${port}/${encodeURIComponent(database)}?${query}`;
        const address = parseStoreAddress(text);
        const expectedHost = new URL(`postgres://x@${hostName}`).hostname.replace(/^\[(.*)\]$/, '$1');
        expect(address).toEqual({ host: expectedHost, port, database, user, tls, caFile });
        expect(keychainAccount(parseStoreAddress(text))).toBe(keychainAccount(address));
      }),
      fuzz(2000),
    );
  });
});
