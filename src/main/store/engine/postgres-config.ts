/**
 * Where a warehouse's shared store is and how to reach it. The admin gives an address
 * (`postgres://station@db.warehouse.lan:5432/packing?sslmode=verify-full`); the station keeps that
 * address in its settings and the password apart, in the OS keychain, in an entry bound to the
 * address (keychainAccount): the password is only ever sent to the server it was entered for, and
 * never lands in a settings file, a log or a support bundle. An address that carries a password is
 * refused rather than stored.
 */
import type { ConnectionOptions } from 'node:tls';
import { z } from 'zod';
import { StationError } from '../../../shared/errors';
import { readCertificateFile } from './certificate-file';

/** disable: plain TCP (loopback and tests); require: TLS without checking the certificate; verify-full: TLS, certificate and host name checked. */
export type TlsMode = 'disable' | 'require' | 'verify-full';

export interface PostgresAddress {
  host: string;
  port: number;
  database: string;
  user: string;
  tls: TlsMode;
  /** A PEM file with the certificate authority to trust (verify-full), when not the system's. */
  caFile: string | null;
}

export interface PostgresStoreConfig extends Omit<PostgresAddress, 'caFile'> {
  /** Asked each time a connection opens (the keychain, in the station). */
  password: string | (() => Promise<string>);
  /** The certificate authority's PEM text (verify-full), when not the system's. */
  ca?: string;
  /** Connections kept by this bench. Default 10. */
  poolSize?: number;
  /** Giving up on reaching the server. Default 5 s. */
  connectTimeoutMs?: number;
  /** Shown in pg_stat_activity, e.g. the bench's name. */
  applicationName?: string;
}

const TlsModeSchema = z.enum(['disable', 'require', 'verify-full']);

/** What is wrong with a store address, as the screen words it (INVALID_INPUT's subject). */
export type StoreAddressProblem = 'store-address-form' | 'store-address-password' | 'store-address-user' | 'store-address-database' | 'store-address-sslmode' | 'store-address-option';

const invalid = (subject: StoreAddressProblem, reason: string, facts: Record<string, string> = {}) =>
  new StationError('INVALID_INPUT', `Not a usable store address: ${reason}`, [reason], { facts: { subject, ...facts } });

/** Reads an admin's store address. Throws INVALID_INPUT naming what is wrong (facts: subject, and the option or value at fault). */
export function parseStoreAddress(text: string): PostgresAddress {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid('store-address-form', 'not an address (postgres://user@host:port/database)');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') throw invalid('store-address-form', 'it must start with postgres://');
  // Before anything else: the password must never be kept in the settings with the address.
  if (url.password !== '') throw invalid('store-address-password', 'it contains a password: enter the password separately, it is kept in the keychain');
  if (url.username === '') throw invalid('store-address-user', 'it names no user (postgres://user@host/database)');
  if (url.hostname === '') throw invalid('store-address-form', 'it names no host');
  const database = decoded(url.pathname.replace(/^\//, ''), 'database');
  if (database === '' || database.includes('/')) throw invalid('store-address-database', 'it names no database (postgres://user@host/database)');
  const port = url.port === '' ? 5432 : Number(url.port);
  const sslmode = url.searchParams.get('sslmode') ?? 'verify-full';
  const tls = TlsModeSchema.safeParse(sslmode);
  if (!tls.success) throw invalid('store-address-sslmode', `sslmode must be disable, require or verify-full, not ${sslmode}`, { value: sslmode.slice(0, 40) });
  for (const name of url.searchParams.keys()) {
    if (name !== 'sslmode' && name !== 'sslrootcert') throw invalid('store-address-option', `unknown option ${name}`, { option: name.slice(0, 40) });
  }
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port,
    database,
    user: decoded(url.username, 'user'),
    tls: tls.data,
    caFile: url.searchParams.get('sslrootcert'),
  };
}

/** A percent-encoded part of the address, or INVALID_INPUT when a % is not followed by a character's encoding. */
function decoded(text: string, part: 'user' | 'database'): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw invalid(part === 'user' ? 'store-address-user' : 'store-address-database', `its ${part} name has a % that does not start an encoded character (write % itself as %25)`);
  }
}

/** The keychain entry holding the password of this address (user, server and database). */
export function keychainAccount(address: Pick<PostgresAddress, 'user' | 'host' | 'port' | 'database'>): string {
  return `store-password:postgres://${encodeURIComponent(address.user)}@${address.host}:${address.port}/${encodeURIComponent(address.database)}`;
}

/**
 * The address with the password and CA text that go with it: the engine's configuration. The CA
 * file is read bounded and off the main thread (certificate-file.ts); one that cannot be used
 * throws INVALID_INPUT (field sslrootcert) naming why.
 */
export async function storeConfig(address: PostgresAddress, password: PostgresStoreConfig['password']): Promise<PostgresStoreConfig> {
  const { caFile, ...rest } = address;
  return caFile ? { ...rest, password, ca: await readCertificateFile(caFile) } : { ...rest, password };
}

/** Whether the server's identity is checked before the password is sent: only verify-full does. */
export const verifiesServer = (address: Pick<PostgresAddress, 'tls'>): boolean => address.tls === 'verify-full';

/**
 * node-postgres' `ssl` option for a mode. The host name (or IP address) is checked against the
 * certificate by node-postgres itself, which passes the host to TLS (and SNI only for names).
 */
export function tlsOptions(config: Pick<PostgresStoreConfig, 'tls' | 'ca'>): false | ConnectionOptions {
  switch (config.tls) {
    case 'disable':
      return false;
    case 'require':
      return { rejectUnauthorized: false };
    case 'verify-full':
      return config.ca ? { rejectUnauthorized: true, ca: config.ca } : { rejectUnauthorized: true };
  }
}

/**
 * The refusal of an address whose sslmode does not check the server, when the lead has not chosen
 * so explicitly: whoever answers at that address would be sent the password.
 */
export function unverifiedServerRefusal(address: PostgresAddress): StationError {
  const server = `${address.host}:${address.port}`;
  return new StationError(
    'NOT_CONFIGURED',
    `sslmode=${address.tls} does not check that ${server} is the warehouse's server: whoever answers there would be sent the password. Use sslmode=verify-full, or accept an unchecked server explicitly.`,
    [server, `sslmode=${address.tls}`],
    { facts: { server, problem: 'unverified', tls: address.tls } },
  );
}
