/**
 * A private PostgreSQL server for tests and benchmarks: Debian's binaries (`postgresql` package,
 * /usr/lib/postgresql/<version>/bin, installed by scripts/install-test-deps.sh), a cluster made
 * with initdb in a temporary folder, listening on a free loopback port only, its unix socket in
 * that folder. PostgreSQL refuses to run as root, so under root every server command runs as the
 * `postgres` user (the Debian package creates it) through setpriv, and the folder is handed to it.
 * As any other user the server runs as that user. The folder is removed when the server is.
 *
 * Password login over TCP (scram-sha-256), so the engine's password path is the one in use; no
 * fsync or full page writes: a crashed test server is thrown away, never recovered.
 */
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, chmodSync, chownSync, copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

/** How to reach a test server (serialisable: a Vitest globalSetup hands it to the test files). */
export interface PostgresServerInfo {
  host: '127.0.0.1';
  port: number;
  user: string;
  password: string;
  /** The maintenance database; test files get their own with createTestDatabase. */
  database: string;
}

export interface PostgresServer {
  readonly info: PostgresServerInfo;
  /** Stops the server (fast shutdown: open sessions are ended), keeping its files. */
  stop(): Promise<void>;
  /** Starts it again on the same port with the same data. */
  start(): Promise<void>;
  /** Stops it if running and removes its folder. */
  dispose(): Promise<void>;
}

/** The newest PostgreSQL binaries Debian installed (PG_BIN_DIR overrides). */
export function postgresBinDir(): string {
  const fromEnv = process.env.PG_BIN_DIR;
  if (fromEnv) return fromEnv;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((name) => existsSync(join(root, name, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0) throw new Error(`No PostgreSQL server under ${root}: run scripts/install-test-deps.sh (installs Debian's postgresql).`);
  return join(root, versions[0]!, 'bin');
}

/** uid/gid to run the server as: null when this process is not root (it runs as us). */
function serverAccount(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const user = process.env.PG_TEST_USER ?? 'postgres';
  try {
    const uid = Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim());
    return { uid, gid };
  } catch {
    throw new Error(`Running as root, and PostgreSQL refuses root: no user "${user}" to run it as (install Debian's postgresql, or set PG_TEST_USER).`);
  }
}

export async function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export interface PostgresServerOptions {
  /** Serve TLS with this certificate and key (PEM files); TCP without TLS stays allowed. */
  tls?: { certFile: string; keyFile: string };
}

export async function startPostgresServer(options: PostgresServerOptions = {}): Promise<PostgresServer> {
  const bin = postgresBinDir();
  const account = serverAccount();
  const folder = mkdtempSync(join(tmpdir(), 'station-pg-'));
  const data = join(folder, 'data');
  const socketDir = join(folder, 'socket');
  const log = join(folder, 'server.log');
  const password = randomBytes(18).toString('base64url');
  const user = 'station';
  const passwordFile = join(folder, 'password');
  writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
  execFileSync('mkdir', ['-m', '0700', socketDir]);
  if (account) for (const path of [folder, passwordFile, socketDir]) chownSync(path, account.uid, account.gid);

  const asServer = async (command: string, args: string[]) => {
    const file = join(bin, command);
    const [program, programArgs] = account
      ? ['setpriv', [`--reuid=${account.uid}`, `--regid=${account.gid}`, '--clear-groups', '--', file, ...args]]
      : [file, args];
    try {
      await run(program, programArgs, { cwd: folder, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C', LC_ALL: 'C' } });
    } catch (error) {
      const serverLog = existsSync(log) ? readFileSync(log, 'utf8').slice(-2000) : '';
      throw new Error(`${command} ${args.join(' ')} failed: ${(error as Error).message}\n${serverLog}`, { cause: error });
    }
  };

  await asServer('initdb', [
    '-D', data, '-U', user, `--pwfile=${passwordFile}`, '--auth-local=trust', '--auth-host=scram-sha-256',
    '-E', 'UTF8', '--locale=C', '--no-sync', '--no-instructions',
  ]);
  rmSync(passwordFile);
  const tlsLines: string[] = [];
  if (options.tls) {
    // The server reads its key only when the key belongs to it and no one else can read it.
    const certFile = join(data, 'server.crt');
    const keyFile = join(data, 'server.key');
    copyFileSync(options.tls.certFile, certFile);
    copyFileSync(options.tls.keyFile, keyFile);
    chmodSync(keyFile, 0o600);
    if (account) for (const path of [certFile, keyFile]) chownSync(path, account.uid, account.gid);
    tlsLines.push('ssl = on', "ssl_cert_file = 'server.crt'", "ssl_key_file = 'server.key'");
  }
  appendFileSync(
    join(data, 'postgresql.conf'),
    [
      "listen_addresses = '127.0.0.1'",
      `unix_socket_directories = '${socketDir}'`,
      'fsync = off',
      'synchronous_commit = off',
      'full_page_writes = off',
      'max_connections = 200',
      // A client that gives up mid-login leaves no session behind for long (DROP DATABASE waits for it).
      'authentication_timeout = 5s',
      ...tlsLines,
      '',
    ].join('\n'),
  );

  let port = 0;
  let running = false;
  const start = async () => {
    // A free port can be taken between the probe and the bind: try a few.
    for (let attempt = 1; ; attempt += 1) {
      if (port === 0) port = await freeLoopbackPort();
      try {
        await asServer('pg_ctl', ['-D', data, '-l', log, '-w', '-t', '60', '-o', `-p ${port}`, 'start']);
        running = true;
        return;
      } catch (error) {
        if (attempt >= 3 || running) throw error;
        port = 0;
      }
    }
  };
  const stop = async () => {
    if (!running) return;
    await asServer('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop']);
    running = false;
  };
  // Never leave a server behind when the process ends without calling dispose.
  const onExit = () => {
    if (!running) return;
    try {
      execFileSync(account ? 'setpriv' : join(bin, 'pg_ctl'), account ? [`--reuid=${account.uid}`, `--regid=${account.gid}`, '--clear-groups', '--', join(bin, 'pg_ctl'), '-D', data, '-m', 'immediate', 'stop'] : ['-D', data, '-m', 'immediate', 'stop'], { cwd: folder, stdio: 'ignore' });
    } catch {
      // already gone
    }
    rmSync(folder, { recursive: true, force: true });
  };
  process.once('exit', onExit);

  try {
    await start();
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    process.off('exit', onExit);
    throw error;
  }

  return {
    get info(): PostgresServerInfo {
      return { host: '127.0.0.1', port, user, password, database: 'postgres' };
    },
    stop,
    start,
    dispose: async () => {
      try {
        await stop();
      } finally {
        process.off('exit', onExit);
        rmSync(folder, { recursive: true, force: true });
      }
    },
  };
}

export interface TestDatabase {
  /** Connection settings for the engine (database name included). */
  info: PostgresServerInfo;
  drop(): Promise<void>;
}

/** A fresh, empty database on the server, named after nothing but randomness. */
export async function createTestDatabase(server: PostgresServerInfo): Promise<TestDatabase> {
  const name = `station_test_${randomBytes(6).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ host: server.host, port: server.port, user: server.user, password: server.password, database: server.database });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  return {
    info: { ...server, database: name },
    drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

/**
 * A server and a database of the test file's own (a test that stops and starts the server must not
 * disturb other files), started before its tests and removed after: pass the file's `test` (or
 * anything with beforeAll/afterAll hooks).
 */
export function ownPostgres(hooks: { beforeAll(run: () => Promise<void>): void; afterAll(run: () => Promise<void>): void }): { server(): PostgresServer; database(): TestDatabase } {
  let server: PostgresServer | null = null;
  let database: TestDatabase | null = null;
  hooks.beforeAll(async () => {
    server = await startPostgresServer();
    database = await createTestDatabase(server.info);
  });
  hooks.afterAll(async () => {
    await server?.dispose();
  });
  const started = <T>(value: T | null): T => {
    if (value === null) throw new Error('the test file\'s PostgreSQL server has not started');
    return value;
  };
  return { server: () => started(server), database: () => started(database) };
}
