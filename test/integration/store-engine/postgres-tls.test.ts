/**
 * TLS to the shared store, against a private server that serves a certificate signed by a test
 * certificate authority (made here with openssl): verify-full with that authority connects
 * encrypted, verify-full without it is refused before any password is sent, require encrypts
 * without checking, disable stays plain.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StationError } from '../../../src/shared/errors';
import { PostgresEngine } from '../../../src/main/store/engine/postgres-engine';
import type { PostgresStoreConfig, TlsMode } from '../../../src/main/store/engine/postgres-config';
import { startPostgresServer, type PostgresServer } from '../../support/postgres-server';
import { postgresConfig } from './engines';

function makeCertificates(folder: string): { ca: string; certFile: string; keyFile: string } {
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: folder, stdio: 'pipe' });
  const ecKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl('req', '-x509', ...ecKey, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=Station test CA');
  openssl('req', ...ecKey, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1');
  writeFileSync(join(folder, 'san.ext'), 'subjectAltName = IP:127.0.0.1\n');
  openssl('x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem', '-days', '2', '-extfile', 'san.ext');
  return { ca: readFileSync(join(folder, 'ca.pem'), 'utf8'), certFile: join(folder, 'server.pem'), keyFile: join(folder, 'server.key') };
}

describe('PostgreSQL engine over TLS', () => {
  let folder: string;
  let server: PostgresServer;
  let ca: string;
  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'station-tls-'));
    const certificates = makeCertificates(folder);
    ca = certificates.ca;
    server = await startPostgresServer({ tls: certificates });
  });
  afterAll(async () => {
    await server?.dispose();
    rmSync(folder, { recursive: true, force: true });
  });

  const config = (tls: TlsMode, extra: Partial<PostgresStoreConfig> = {}): PostgresStoreConfig => ({ ...postgresConfig(server.info), tls, ...extra });
  const encrypted = async (engine: PostgresEngine) =>
    (await engine.query<{ ssl: boolean }>('SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()'))[0]?.ssl;

  it('verify-full with the certificate authority connects encrypted', async () => {
    const engine = await PostgresEngine.open(config('verify-full', { ca }));
    try {
      expect(await encrypted(engine)).toBe(true);
    } finally {
      await engine.close();
    }
  });

  it('verify-full without the authority refuses the server: STORE_UNAVAILABLE, and no connection asked for the password', async () => {
    let passwordAsked = 0;
    const password = async () => {
      passwordAsked += 1;
      return server.info.password;
    };
    const refusal = await PostgresEngine.open(config('verify-full', { password })).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(StationError);
    expect((refusal as StationError).code).toBe('STORE_UNAVAILABLE');
    expect((refusal as StationError).message).toMatch(/certificate/i);
    // Once by open's own check that a password can be had (nothing is sent then); a connection asks
    // for it only after the certificate was accepted.
    expect(passwordAsked).toBe(1);
  });

  it('require encrypts without checking the certificate; disable stays plain', async () => {
    const required = await PostgresEngine.open(config('require'));
    const plain = await PostgresEngine.open(config('disable'));
    try {
      expect(await encrypted(required)).toBe(true);
      expect(await encrypted(plain)).toBe(false);
    } finally {
      await required.close();
      await plain.close();
    }
  });
});
