import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, fetch } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { keptSessionKey } from '../../../src/main/web-host/session-key';
import { startWebHost } from '../../../src/main/web-host/server';
import { createTestStation, type TestStation } from '../../support/station';

let test: TestStation;
let rendererDir: string;

beforeAll(async () => {
  test = await createTestStation();
  rendererDir = mkdtempSync(join(tmpdir(), 'renderer-'));
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Packing Station</title>');
});

afterAll(async () => {
  await test?.dispose();
});

it('a restarted web host keeps its open pages signed in, but the link printed before the restart stops working', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'web-host-data-'));
  const first = await startWebHost({ station: test.station, rendererDir, sessionKey: keptSessionKey(dataDir) });
  const traded = await fetch(first.launchUrl, { redirect: 'manual' });
  expect(traded.status).toBe(303);
  const cookie = (traded.headers.get('set-cookie') ?? '').split(';')[0]!;
  expect((await fetch(`${first.url}/`, { headers: { cookie } })).status).toBe(200);
  const oldLink = first.launchUrl.replace(first.url, '');
  await first.close();
  // A browser opens new connections to a restarted host; so does a fresh agent.
  const afterRestart = new Agent();

  const second = await startWebHost({ station: test.station, rendererDir, port: first.port, sessionKey: keptSessionKey(dataDir) });
  try {
    expect(second.launchUrl).not.toBe(first.launchUrl);
    expect((await fetch(`${second.url}${oldLink}`, { redirect: 'manual', dispatcher: afterRestart })).status).toBe(401);
    expect((await fetch(`${second.url}/`, { headers: { cookie }, dispatcher: afterRestart })).status).toBe(200);
    expect(statSync(join(dataDir, 'web-host-session-key')).mode & 0o777).toBe(0o600);
  } finally {
    await second.close();
    await afterRestart.close();
  }

  // A host whose key file is gone signs the old pages out.
  const elsewhere = await startWebHost({ station: test.station, rendererDir, sessionKey: keptSessionKey(mkdtempSync(join(tmpdir(), 'web-host-data-'))) });
  try {
    expect((await fetch(`${elsewhere.url}/`, { headers: { cookie } })).status).toBe(401);
  } finally {
    await elsewhere.close();
  }
});
