/**
 * Opens a warehouse's shared store for a command that serves it (`webhooks serve --store`): the
 * address as the admin gives it, TLS options that may override the address's, the password from
 * the environment (a service account) or else the OS keychain, and failures said plainly: store
 * unreachable, password refused, TLS refused.
 *
 * Why an environment variable at all: a service runs under an account that has no unlocked
 * keychain (a systemd service has no Secret Service session; a Windows service account has no
 * logged-on profile to unlock the Credential Manager in). systemd hands it over from a root-only
 * file (EnvironmentFile=, mode 0600) without it appearing on a command line; the keychain stays
 * the choice wherever an account that logs on runs the receiver.
 */
import { StationError } from '../../shared/errors';
import { parseStoreAddress, storeConfig, unverifiedServerRefusal, verifiesServer, type PostgresAddress, type TlsMode } from './engine/postgres-config';
import { PostgresEngine } from './engine/postgres-engine';
import { createKeychainStorePasswords, keychainPassword } from './engine/store-password';
import { driverErrorCode, isConnectionFailure, isTlsCode } from './engine/store-errors';
import { errorText } from '../../shared/error-text';

/** The environment variable a service account's store password may come from. */
export const storePasswordVariable = 'PACKING_STATION_STORE_PASSWORD';

export interface SharedStoreRequest {
  address: string;
  /** Overrides the address's sslmode. */
  tls?: TlsMode;
  /** Overrides the address's sslrootcert (a PEM file with the certificate authority). */
  caFile?: string;
  /** The admin chose to send the password to a server whose identity sslmode does not check. */
  acceptUnverifiedServer?: boolean;
  env: NodeJS.ProcessEnv;
  keychainService: string;
  applicationName: string;
}

export interface OpenedStore {
  engine: PostgresEngine;
  address: PostgresAddress;
  passwordFrom: 'environment' | 'keychain';
}

export async function openSharedStore(request: SharedStoreRequest): Promise<OpenedStore> {
  const parsed = parseStoreAddress(request.address);
  const address: PostgresAddress = { ...parsed, tls: request.tls ?? parsed.tls, caFile: request.caFile ?? parsed.caFile };
  const fromEnvironment = request.env[storePasswordVariable];
  const passwordFrom = fromEnvironment !== undefined && fromEnvironment !== '' ? 'environment' : 'keychain';
  const password = passwordFrom === 'environment' ? (fromEnvironment as string) : keychainPassword(createKeychainStorePasswords(request.keychainService), address);
  if (!verifiesServer(address) && request.acceptUnverifiedServer !== true) throw unverifiedServerRefusal(address);
  const config = await storeConfig(address, password);
  try {
    const engine = await PostgresEngine.open({ ...config, applicationName: request.applicationName });
    return { engine, address, passwordFrom };
  } catch (error) {
    throw explainStoreFailure(error, address, passwordFrom);
  }
}

/** A failure to open the store, as the admin can act on it. Details name the server and the cause. */
export function explainStoreFailure(error: unknown, address: PostgresAddress, passwordFrom: OpenedStore['passwordFrom']): unknown {
  const server = `${address.host}:${address.port}`;
  const cause = (error as { cause?: unknown }).cause ?? error;
  const code = (cause as { code?: unknown }).code;
  const reason = errorText(cause);
  if (code === '28P01' || code === '28000') {
    const where = passwordFrom === 'environment' ? `the ${storePasswordVariable} variable` : 'the keychain entry for this address';
    return new StationError('STORE_UNAVAILABLE', `The shared store at ${server} refused the password of user ${address.user} (from ${where}).`, [server, 'password', address.user], { cause: error });
  }
  if (isTlsFailure(cause)) {
    return new StationError(
      'STORE_UNAVAILABLE',
      `The TLS connection to the shared store at ${server} was refused (${reason}). Check sslmode (now ${address.tls}) and, for a private certificate authority, sslrootcert or --ca.`,
      [server, 'tls', reason],
      { cause: error },
    );
  }
  if (error instanceof StationError) {
    if (error.code === 'STORE_UNAVAILABLE') return new StationError('STORE_UNAVAILABLE', `The shared store at ${server} cannot be reached (${reason}).`, [server, 'unreachable', reason], { cause: error });
    return error;
  }
  if (isConnectionFailure(cause)) return new StationError('STORE_UNAVAILABLE', `The shared store at ${server} cannot be reached (${reason}).`, [server, 'unreachable', reason], { cause: error });
  return error;
}

function isTlsFailure(error: unknown): boolean {
  return isTlsCode(driverErrorCode(error));
}
