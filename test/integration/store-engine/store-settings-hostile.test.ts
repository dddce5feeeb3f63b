/**
 * The shared store's settings against mistakes and impostors, through the contract and the CLI:
 * a certificate authority path that names a pipe or /dev/zero never stops the bench from starting
 * or the station from answering, and there is a way back; changing only the TLS settings keeps the
 * stored password; and the stored password goes to a server whose identity is not checked only
 * after a lead chose that explicitly (a fake server at the saved address records what it gets).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Station } from '../../../src/main/composition';
import type { StoreStatus } from '../../../src/shared/contract/store';
import { runCliIn } from '../../support/cli';
import { startImpostor, type Impostor } from '../../support/impostor-postgres';
import { call, memoryStorePasswords, openStationIn, refusal } from '../../support/shared-store';
import { memoryKeyStore } from '../../support/station';
import { waitUntil } from '../../support/wait-until';

let dataDir: string;
let passwords: ReturnType<typeof memoryStorePasswords>;
const stations: Station[] = [];
const children: ChildProcess[] = [];
const impostors: Impostor[] = [];

const open = async () => {
  const station = await openStationIn(dataDir, { storePasswords: passwords, storeHealth: { probeIntervalMs: 100, connectTimeoutMs: 2_000 } });
  stations.push(station);
  return station;
};
const cli = (argv: string[], stdin?: string) => runCliIn(dataDir, { keyStore: memoryKeyStore(), storePasswords: passwords, storeHealth: { probeIntervalMs: 100 } }, argv, stdin);

/** Saves a store setting as an earlier version (or a hand edit) left it, without going through store.set. */
async function saveSettingDirectly(value: unknown): Promise<void> {
  const station = await openStationIn(dataDir, { storePasswords: passwords });
  station.services.db.prepare("INSERT OR REPLACE INTO settings (scope, key, value, updated_at) VALUES ('station', 'store', ?, '2026-11-27T06:00:00.000Z')").run(JSON.stringify(value));
  await station.close();
}

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'station-store-hostile-'));
  passwords = memoryStorePasswords();
});
afterEach(async () => {
  for (const station of stations.splice(0)) await station.close();
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  for (const impostor of impostors.splice(0)) await impostor.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function namedPipe(name: string, writerHoldsMs: number): Promise<string> {
  const path = join(dataDir, name);
  const made = spawn('mkfifo', [path]);
  await new Promise((resolve) => made.once('exit', resolve));
  // A writer that opens the pipe and holds it: a blocking read of the pipe waits for it to end.
  const writer = spawn('sh', ['-c', `exec 3>"$0"; sleep ${writerHoldsMs / 1000}`, path], { stdio: 'ignore' });
  children.push(writer);
  return path;
}

describe('a certificate authority file that is not one', () => {
  it('never stops the bench from starting: it opens with the store offline and says why, and the CLI and the screen can set it back', async () => {
    for (const caFile of [await namedPipe('pipe.pem', 6_000), '/dev/zero', join(dataDir, 'missing.pem')]) {
      await saveSettingDirectly({ kind: 'postgres', address: `postgres://station@127.0.0.1:1/packing?sslmode=verify-full&sslrootcert=${encodeURIComponent(caFile)}` });
      const started = performance.now();
      const station = await open();
      // Before: a pipe held the start until its writer let go (6 s); /dev/zero read 1 GB in ~2 s and never came up.
      expect(performance.now() - started).toBeLessThan(4_000);
      await waitUntil(() => station.services.storeHealth.current().problem === 'certificate', 'the store offline for its certificate file', 10_000);
      expect((await call<StoreStatus>(station, 'store.get', {})).health.state).toBe('offline');
      await station.close();
      stations.splice(stations.indexOf(station), 1);

      const got = await cli(['settings', 'get', 'store']);
      expect(got.code).toBe(0);
      expect(got.stdout).toContain('the certificate authority file (sslrootcert) cannot be used');
    }
    const back = await cli(['settings', 'set', 'store', 'local']);
    expect(back.code).toBe(0);
    expect(back.stdout).toContain('store: local (this bench only)');
  }, 60_000);

  it('store.set and store.test refuse a pipe or a device at once, and the station keeps answering meanwhile', async () => {
    const station = await open();
    const pipe = await namedPipe('test-pipe.pem', 6_000);
    for (const caFile of [pipe, '/dev/zero']) {
      const address = `postgres://station@127.0.0.1:1/packing?sslmode=verify-full&sslrootcert=${encodeURIComponent(caFile)}`;
      const started = performance.now();
      const tested = station.dispatcher.dispatch('store.test', { address, password: 'secret' }, { host: 'web' });
      // Another call while the test runs: before, a pipe froze the whole station until its writer let go.
      const info = await station.dispatcher.dispatch('app.info', {}, { host: 'web' });
      expect(info.ok).toBe(true);
      expect(performance.now() - started).toBeLessThan(1_000);
      expect(await tested).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', facts: { field: 'sslrootcert', reason: 'it is not a regular file' } } });
      expect(await refusal(station, 'store.set', { kind: 'postgres', address, password: 'secret' })).toMatchObject({ code: 'INVALID_INPUT', facts: { field: 'sslrootcert' } });
    }
    expect((await call<StoreStatus>(station, 'store.get', {})).chosen).toEqual({ kind: 'local' });
    expect(passwords.entries.size).toBe(0);
  }, 30_000);
});

describe('changing only the TLS settings', () => {
  it('keeps the password just stored (a new sslmode, a new certificate authority file)', async () => {
    const station = await open();
    const ca = join(dataDir, 'warehouse-ca.pem');
    writeFileSync(ca, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
    const server = 'postgres://station@db.warehouse.lan:5432/packing';
    await call(station, 'store.set', { kind: 'postgres', address: `${server}?sslmode=verify-full`, password: 'first' });
    // Only the certificate authority changes (before: the password was removed with the old address).
    const withCa = await call<StoreStatus>(station, 'store.set', { kind: 'postgres', address: `${server}?sslmode=verify-full&sslrootcert=${encodeURIComponent(ca)}`, password: 'second' });
    expect(withCa.chosen).toMatchObject({ passwordStored: true, caFile: ca });
    // Only the sslmode changes, by a lead's explicit choice.
    const unchecked = await call<StoreStatus>(station, 'store.set', { kind: 'postgres', address: `${server}?sslmode=require`, password: 'third', acceptUnverifiedServer: true });
    expect(unchecked.chosen).toMatchObject({ tls: 'require', passwordStored: true, unverifiedServerAccepted: true });
    expect([...passwords.entries.values()]).toEqual(['third']);
    // Back to the bench's own file: the password entered for that server goes.
    await call(station, 'store.set', { kind: 'local' });
    expect(passwords.entries.size).toBe(0);
  });
});

describe('an impostor at the saved address', () => {
  const addressOf = (impostor: Impostor, tls: string) => `postgres://station@127.0.0.1:${impostor.port}/packing?sslmode=${tls}`;

  for (const tls of ['require', 'disable'] as const) {
    it(`gets no password from a bench whose saved sslmode=${tls} no lead accepted: at start, from store.test, or from the CLI's test`, async () => {
      const impostor = await startImpostor({ tls: tls === 'require' });
      impostors.push(impostor);
      // As an earlier version saved it: the address alone, the password in the keychain.
      await saveSettingDirectly({ kind: 'postgres', address: addressOf(impostor, tls) });
      await passwords.set({ user: 'station', host: '127.0.0.1', port: impostor.port, database: 'packing' }, 'the-warehouse-password');

      const station = await open();
      await waitUntil(() => station.services.storeHealth.current().problem === 'unverified', 'the store offline for its unchecked server', 10_000);
      expect(await refusal(station, 'store.test', { address: addressOf(impostor, tls) })).toMatchObject({ code: 'NOT_CONFIGURED', facts: { problem: 'unverified' } });
      expect(await refusal(station, 'store.set', { kind: 'postgres', address: addressOf(impostor, tls) })).toMatchObject({ code: 'NOT_CONFIGURED', facts: { problem: 'unverified' } });
      await station.close();
      stations.splice(stations.indexOf(station), 1);
      const tested = await cli(['settings', 'test', 'store'], '');
      expect(tested.code).toBe(1);
      expect(tested.stderr).toContain(`sslmode=${tls} does not check`);
      const got = await cli(['settings', 'get', 'store']);
      expect(got.stdout).toContain('its sslmode does not check the server and no admin accepted that');
      // Before: the impostor asked for the password in clear text and received it, at start (every probe) and from the test.
      expect(impostor.passwords).toEqual([]);
      expect(impostor.connections).toBe(0);
    });
  }

  it('with sslmode=verify-full (the default) refuses the impostor\'s certificate before any password is sent', async () => {
    const impostor = await startImpostor({ tls: true });
    impostors.push(impostor);
    const station = await open();
    const address = `postgres://station@127.0.0.1:${impostor.port}/packing`;
    expect(await refusal(station, 'store.test', { address, password: 'the-warehouse-password' })).toMatchObject({ code: 'STORE_UNAVAILABLE', facts: { problem: 'tls' } });
    expect(impostor.connections).toBe(1);
    expect(impostor.passwords).toEqual([]);
  });

  it('sends the password to an unchecked server only after the explicit choice, and the CLI says plainly what that means', async () => {
    const impostor = await startImpostor({ tls: true });
    impostors.push(impostor);
    const address = addressOf(impostor, 'require');
    const refused = await cli(['settings', 'set', 'store', address], 'the-warehouse-password\n');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('does not check that 127.0.0.1');
    expect(passwords.entries.size).toBe(0);
    const chosen = await cli(['settings', 'set', 'store', address, '--unverified-server'], 'the-warehouse-password\n');
    expect(chosen.code).toBe(0);
    expect(chosen.stderr).toContain('the station does not check who answers at this address; whoever does receives the password');
    expect(chosen.stdout).toContain('server identity: NOT checked (sslmode=require, accepted by the admin)');
    expect(impostor.passwords).toEqual([]);
    // The lead's choice is saved with the address: the bench uses it, and whoever answers gets the password.
    await open();
    await waitUntil(() => impostor.passwords.length > 0, 'the password at the impostor', 10_000);
    expect(impostor.passwords[0]).toBe('the-warehouse-password');
  });
});
