/**
 * The `store` setting: this bench's own file (local, the default) or a warehouse's shared
 * PostgreSQL store. The address is kept in the bench's settings without the password; the
 * password goes into the OS keychain under that address (store-password.ts). A new choice is
 * applied at the next start: the repositories hold the engine they were built with, and a live
 * switch would leave a print half in one store and half in the other.
 */
import type { StoreChoice, StoreProblem, StoreSetting, StoreStatus, StoreTest, StoreTestResult } from '../../shared/contract/store';
import { StationError } from '../../shared/errors';
import { explainStoreFailure } from './shared-store';
import { keychainAccount, parseStoreAddress, storeConfig, unverifiedServerRefusal, verifiesServer, type PostgresAddress, type TlsMode } from './engine/postgres-config';
import { PostgresEngine } from './engine/postgres-engine';
import type { StorePasswords } from './engine/store-password';
import type { StoreHealth } from './store-health';
import type { StoreSettingValue } from './store-setting';

/** Where the bench keeps its store setting (the station's settings): the store reads and writes only that. */
export interface StoreSettingKept {
  store(): StoreSettingValue;
  setStore(setting: StoreSettingValue): void;
}

/** The one spelling of an address the station stores and shows: never a password in it. */
export function formatStoreAddress(address: PostgresAddress): string {
  const host = address.host.includes(':') ? `[${address.host}]` : address.host;
  const query = new URLSearchParams({ sslmode: address.tls });
  if (address.caFile) query.set('sslrootcert', address.caFile);
  return `postgres://${encodeURIComponent(address.user)}@${host}:${address.port}/${encodeURIComponent(address.database)}?${query.toString()}`;
}

/** An admin's address, the TLS mode given apart overriding its sslmode. INVALID_INPUT (facts: field, reason) when unusable. */
export function readStoreAddress(text: string, tls?: TlsMode): PostgresAddress {
  try {
    const parsed = parseStoreAddress(text.trim());
    return tls ? { ...parsed, tls } : parsed;
  } catch (error) {
    if (!(error instanceof StationError)) throw error;
    throw new StationError(error.code, error.message, error.details, { cause: error, facts: { ...error.facts, field: 'store', reason: error.details?.[0] ?? null } });
  }
}

const serverOf = (address: PostgresAddress) => `${address.host}:${address.port}`;

/** Why reaching the store failed, as the screen words it. */
export function storeProblemOf(error: unknown, address: PostgresAddress): StoreProblem {
  if (error instanceof StationError && error.facts?.field === 'sslrootcert') return 'certificate';
  if (error instanceof StationError && error.facts?.problem === 'unverified') return 'unverified';
  if (error instanceof StationError && error.code === 'NOT_CONFIGURED') return 'no-password';
  if (error instanceof StationError && error.code === 'STORE_NEWER_THAN_STATION') return 'schema';
  const explained = explainStoreFailure(error, address, 'keychain');
  if (explained instanceof StationError && explained.code === 'STORE_UNAVAILABLE') {
    const kind = explained.details?.[1];
    return kind === 'password' || kind === 'tls' ? kind : 'unreachable';
  }
  return 'other';
}

/** A failure to reach the store as a stable code with facts (server, problem) for the screen. */
function storeFailure(error: unknown, address: PostgresAddress): unknown {
  if (error instanceof StationError && error.code === 'NOT_CONFIGURED') {
    return new StationError('NOT_CONFIGURED', error.message, error.details, { cause: error, facts: { server: serverOf(address), problem: 'no-password' } });
  }
  const explained = explainStoreFailure(error, address, 'keychain');
  if (explained instanceof StationError && explained.code === 'STORE_UNAVAILABLE') {
    return new StationError('STORE_UNAVAILABLE', explained.message, explained.details, { cause: error, facts: { server: serverOf(address), problem: storeProblemOf(error, address) } });
  }
  return explained;
}

/**
 * Connects, reads the schema version and disconnects: nothing is created or changed (a fresh
 * database answers version 0; the first bench to start with it sets it up).
 */
export async function testStoreConnection(address: PostgresAddress, password: string, applicationName: string): Promise<StoreTestResult> {
  const config = await storeConfig(address, password);
  const engine = new PostgresEngine({ ...config, poolSize: 1, applicationName });
  try {
    const [table] = await engine.query<{ present: boolean }>("SELECT to_regclass('schema_migrations') IS NOT NULL AS present");
    const version = table?.present ? ((await engine.query<{ version: number | null }>('SELECT max(version) AS version FROM schema_migrations'))[0]?.version ?? 0) : 0;
    return { server: serverOf(address), schemaVersion: Number(version) };
  } catch (error) {
    throw storeFailure(error, address);
  } finally {
    await engine.close();
  }
}

export interface StoreInUse {
  kind: 'local' | 'postgres';
  /** The address this run opened; null for the bench's own file. */
  address: string | null;
}

export interface StoreChoiceDeps {
  settings: StoreSettingKept;
  passwords: StorePasswords;
  /** What this run of the station opened. */
  inUse: StoreInUse;
  health: Pick<StoreHealth, 'current'>;
  applicationName: () => string;
}

export interface StoreChoiceService {
  status(): Promise<StoreStatus>;
  set(choice: StoreChoice): Promise<StoreStatus>;
  test(request: StoreTest): Promise<StoreTestResult>;
}

export function createStoreChoice(deps: StoreChoiceDeps): StoreChoiceService {
  const { settings, passwords } = deps;

  const chosen = async (): Promise<StoreSetting> => {
    const value = settings.store();
    if (value.kind === 'local') return { kind: 'local' };
    const address = parseStoreAddress(value.address);
    return {
      kind: 'postgres',
      address: value.address,
      ...address,
      passwordStored: (await passwords.get(address)) !== null,
      unverifiedServerAccepted: !verifiesServer(address) && value.acceptUnverifiedServer === true,
    };
  };

  const status = async (): Promise<StoreStatus> => {
    const setting = await chosen();
    const chosenAddress = setting.kind === 'postgres' ? setting.address : null;
    return {
      chosen: setting,
      inUse: deps.inUse,
      restartNeeded: setting.kind !== deps.inUse.kind || chosenAddress !== deps.inUse.address,
      health: deps.health.current(),
    };
  };

  /**
   * The password of an address that is no longer the chosen one is removed: it was entered for that
   * server only. The keychain entry is named by user, server and database (not the TLS mode), so an
   * address that differs only in sslmode or sslrootcert shares the entry just written: kept.
   */
  const forgetPasswordOf = async (previous: string | null, next: string | null) => {
    if (previous === null || previous === next) return;
    const previousAddress = parseStoreAddress(previous);
    if (next !== null && keychainAccount(previousAddress) === keychainAccount(parseStoreAddress(next))) return;
    await passwords.remove(previousAddress);
  };

  /** The lead's explicit choice for an unchecked server: given now, or saved with exactly this address. */
  const unverifiedAccepted = (address: PostgresAddress, given: boolean | undefined): boolean => {
    if (verifiesServer(address) || given === true) return true;
    const saved = settings.store();
    return saved.kind === 'postgres' && saved.address === formatStoreAddress(address) && saved.acceptUnverifiedServer === true;
  };

  /** Refuses a CA file that cannot be used now (a pipe, a device, too large, no PEM), before it is saved or used. */
  const checkCertificate = async (address: PostgresAddress) => {
    if (address.caFile) await storeConfig(address, '');
  };

  /**
   * The stored password, only for exactly the saved address: the same server with another TLS mode
   * or certificate authority (a downgrade any contract caller could ask for) needs it typed again.
   */
  const storedPasswordFor = async (address: PostgresAddress): Promise<string | null> => {
    const saved = settings.store();
    if (saved.kind !== 'postgres' || saved.address !== formatStoreAddress(address)) return null;
    return passwords.get(address);
  };

  return {
    status,
    async set(choice) {
      const previous = settings.store();
      const previousAddress = previous.kind === 'postgres' ? previous.address : null;
      if (choice.kind === 'local') {
        settings.setStore({ kind: 'local' });
        await forgetPasswordOf(previousAddress, null);
        return status();
      }
      const address = readStoreAddress(choice.address, choice.tls);
      const text = formatStoreAddress(address);
      if (!verifiesServer(address) && choice.acceptUnverifiedServer !== true) throw unverifiedServerRefusal(address);
      await checkCertificate(address);
      if (choice.password !== undefined) await passwords.set(address, choice.password);
      else if ((await storedPasswordFor(address)) === null) {
        throw new StationError('NOT_CONFIGURED', `No password is stored for ${text} (with this encryption): enter it with the address.`, [text], { facts: { server: serverOf(address), problem: 'no-password' } });
      }
      settings.setStore({ kind: 'postgres', address: text, ...(verifiesServer(address) ? {} : { acceptUnverifiedServer: true }) });
      await forgetPasswordOf(previousAddress, text);
      return status();
    },
    async test(request) {
      const address = readStoreAddress(request.address, request.tls);
      if (!unverifiedAccepted(address, request.acceptUnverifiedServer)) throw unverifiedServerRefusal(address);
      await checkCertificate(address);
      const password = request.password ?? (await storedPasswordFor(address));
      if (password === null) {
        throw new StationError('NOT_CONFIGURED', `No password is stored for ${formatStoreAddress(address)}: enter it to test the connection.`, undefined, {
          facts: { server: serverOf(address), problem: 'no-password' },
        });
      }
      return testStoreConnection(address, password, deps.applicationName());
    },
  };
}
