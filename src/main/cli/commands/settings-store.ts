/**
 * `settings get store`, `settings set store <address>|local`, `settings test store [<address>]`:
 * the IT admin's way to put a bench on the warehouse's shared store. The password is read from
 * standard input (typed without echo at a terminal, or piped in), never from the command line,
 * and goes into the OS keychain under the address; the settings keep the address only.
 */
import type { StoreProblem, StoreStatus } from '../../../shared/contract/store';
import { expectOnly, option } from '../args';
import { exitCodes, UsageError, type CliContext } from '../command';
import { openCalls } from '../station-calls';
import { readSecret } from '../read-secret';

export const storeOptions = ['tls', 'ca'] as const;

export const storeUsage = [
  'settings get store                     the store this bench uses (the address, never the password)',
  'settings set store postgres://<user>@<host>:<port>/<database>[?sslmode=disable|require|verify-full&sslrootcert=<ca.pem>]',
  '             [--tls disable|require|verify-full] [--ca <ca.pem>] [--unverified-server] [--test]',
  '             the password is asked for (or read from standard input) and kept in the OS keychain;',
  '             sslmode require or disable does not check the server: refused unless --unverified-server says so',
  'settings set store local               back to this bench\'s own file',
  'settings test store [<address>] [--unverified-server]',
  '                                       connect (changing nothing) and say "reachable, schema version N"',
].join('\n');

const tlsModes = ['disable', 'require', 'verify-full'] as const;
type Tls = (typeof tlsModes)[number];

function tlsOption(context: CliContext): Tls | undefined {
  const tls = option(context.args, 'tls');
  if (tls === undefined) return undefined;
  if (!(tlsModes as readonly string[]).includes(tls)) throw new UsageError(`--tls must be disable, require or verify-full, not "${tls}".`);
  return tls as Tls;
}

/** The address with --ca as its sslrootcert; an address that does not parse is left for the station to refuse. */
function withCa(address: string, ca: string | undefined): string {
  if (ca === undefined) return address;
  try {
    const url = new URL(address);
    url.searchParams.set('sslrootcert', ca);
    return url.toString();
  } catch {
    return address;
  }
}

/** The password: typed without echo at a terminal, or piped in. Empty: none given. */
async function readPassword(context: CliContext): Promise<string | undefined> {
  const prompt = 'Password of the shared store (Enter alone keeps the stored one)';
  // One trailing line break (echo, a file) is not part of the password.
  const text = (await readSecret(context, { prompt, name: 'a password', maxBytes: 1000 })).replace(/\r?\n$/, '');
  return text === '' ? undefined : text;
}

/** Why the shared store is offline, as the admin can act on it. */
const offlineReasons: Record<StoreProblem, string> = {
  unreachable: 'the server cannot be reached',
  password: 'the server refused the password',
  tls: 'the encrypted connection was refused',
  'no-password': 'no password is stored for this address',
  schema: 'the store is newer than this station',
  certificate: 'the certificate authority file (sslrootcert) cannot be used; see the log, or set the store again',
  unverified: 'its sslmode does not check the server and no admin accepted that; set it again with --unverified-server, or use verify-full',
  other: 'see the station log',
};

function printStatus(context: CliContext, status: StoreStatus): void {
  const { chosen } = status;
  context.print(chosen.kind === 'local' ? 'store: local (this bench only)' : `store: ${chosen.address}`);
  if (chosen.kind === 'postgres') context.print(`password: ${chosen.passwordStored ? 'stored in the OS keychain' : 'none stored'}`);
  if (chosen.kind === 'postgres' && chosen.unverifiedServerAccepted) context.print(`server identity: NOT checked (sslmode=${chosen.tls}, accepted by the admin)`);
  const why = status.health.state === 'offline' && status.health.problem ? `: ${offlineReasons[status.health.problem]}` : '';
  context.print(`in use now: ${status.inUse.kind === 'local' ? 'local' : (status.inUse.address ?? 'a shared store')} (${status.health.state}${why})`);
  if (status.restartNeeded) context.print('The new store is used from the next start of the station.');
}

/** The admin's explicit choice to send the password to a server whose identity is not checked, said back plainly. */
function unverifiedChoice(context: CliContext): { acceptUnverifiedServer?: true } {
  if (!context.args.flags.has('unverified-server')) return {};
  context.warn(
    'Warning: with sslmode require or disable the station does not check who answers at this address; whoever does receives the password. Use sslmode=verify-full where the server has a certificate.',
  );
  return { acceptUnverifiedServer: true };
}

async function testStore(context: CliContext, address: string, tls: Tls | undefined, password: string | undefined, choice: { acceptUnverifiedServer?: true } = {}): Promise<number> {
  const calls = await openCalls(context);
  const input = { address, ...(tls ? { tls } : {}), ...(password !== undefined ? { password } : {}), ...choice };
  const result = await calls.call('store.test', input);
  if (result === null) return exitCodes.failed;
  context.print(`${result.server}: reachable, schema version ${result.schemaVersion}`);
  return exitCodes.ok;
}

/** `settings get|set|test store …`; the positionals after the action. */
export async function runStoreSetting(context: CliContext, action: 'get' | 'set' | 'test', rest: string[]): Promise<number> {
  if (action === 'get') {
    if (rest.length > 0) throw new UsageError('Use "settings get store".');
    expectOnly(context.args, {});
    const calls = await openCalls(context);
    const status = await calls.call('store.get', {});
    if (status === null) return exitCodes.failed;
    printStatus(context, status);
    return exitCodes.ok;
  }
  if (action === 'test') {
    if (rest.length > 1) throw new UsageError('Use "settings test store [<address>]".');
    expectOnly(context.args, { options: storeOptions, flags: ['unverified-server'] });
    const tls = tlsOption(context);
    const given = rest[0];
    if (given === undefined) {
      const calls = await openCalls(context);
      const status = await calls.call('store.get', {});
      if (status === null) return exitCodes.failed;
      if (status.chosen.kind === 'local') throw new UsageError('This bench uses its own file: name a shared store to test, "settings test store postgres://…".');
      return testStore(context, withCa(status.chosen.address, option(context.args, 'ca')), tls, undefined, unverifiedChoice(context));
    }
    return testStore(context, withCa(given, option(context.args, 'ca')), tls, await readPassword(context), unverifiedChoice(context));
  }
  const [target, ...extra] = rest;
  if (target === undefined || extra.length > 0) throw new UsageError('Use "settings set store postgres://user@host:port/database" or "settings set store local".');
  const calls = await openCalls(context);
  if (target === 'local') {
    expectOnly(context.args, {});
    const status = await calls.call('store.set', { kind: 'local' });
    if (status === null) return exitCodes.failed;
    printStatus(context, status);
    return exitCodes.ok;
  }
  expectOnly(context.args, { options: storeOptions, flags: ['test', 'unverified-server'] });
  const tls = tlsOption(context);
  const address = withCa(target, option(context.args, 'ca'));
  const password = await readPassword(context);
  const choice = { kind: 'postgres' as const, address, ...(tls ? { tls } : {}), ...(password !== undefined ? { password } : {}), ...unverifiedChoice(context) };
  const status = await calls.call('store.set', choice);
  if (status === null) return exitCodes.failed;
  printStatus(context, status);
  if (!context.args.flags.has('test') || status.chosen.kind !== 'postgres') return exitCodes.ok;
  return testStore(context, status.chosen.address, undefined, undefined);
}
