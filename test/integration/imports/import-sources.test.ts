import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestStation, type TestStation } from '../../support/station';
import { openWebHost } from './web-host-client';

let test: TestStation | null = null;
afterEach(async () => {
  await test?.dispose();
  test = null;
});

const secretMarker = 'TOP-SECRET-LINE-7f3a';
const csvContent = (fileName: string, lines: string[]) => ({ kind: 'content', fileName, base64: Buffer.from(`${lines.join('\n')}\n`).toString('base64') });

describe('the screen never names a path', () => {
  it('refuses a path source over the web host, and nothing of the file appears in the answer, the events, the log or the index', async () => {
    test = await createTestStation();
    const station = test.station;
    await station.dispatcher.dispatch('settings.set', { environment: 'test' }, { host: 'web' });
    // A readable file with an orderId header, so the old code imported it and echoed its lines in row errors.
    const secret = join(test.dataDir, 'secret.csv');
    writeFileSync(secret, `orderId,status\n${secretMarker},${secretMarker}\n`);
    const events: string[] = [];
    station.events.subscribe((name, payload) => events.push(`${name} ${JSON.stringify(payload)}`));

    const web = await openWebHost(station);
    try {
      for (const path of [secret, '/etc/passwd', '/proc/self/environ']) {
        const result = await web.request('imports.manifest', { source: { kind: 'path', path } });
        expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
        expect(result.error?.details?.join(' ')).toContain('does not read a file the screen names by its path');
      }
      expect(await web.request('imports.pick', {})).toMatchObject({ ok: false, error: { code: 'NOT_CONFIGURED', message: expect.stringContaining('upload') } });
      // A handle the main process never gave opens nothing.
      expect(await web.request('imports.manifest', { source: { kind: 'picked', handle: 'A'.repeat(43) } })).toMatchObject({
        ok: false,
        error: { code: 'IMPORT_FAILED', message: expect.stringContaining('Choose the file again') },
      });
      expect(await web.request('orders.count', {})).toEqual({ ok: true, value: { environment: 'test', orders: 0 } });
      expect(await web.request('imports.recent', {})).toEqual({ ok: true, value: [] });
      expect(web.received.join('\n')).not.toContain(secretMarker);
      expect(web.received.join('\n')).not.toContain('root:');
    } finally {
      await web.close();
    }
    expect(events.join('\n')).not.toContain(secretMarker);
    expect(test.logLines.join('\n')).not.toContain(secretMarker);
  });

  it('in the desktop app imports only a file its own dialog picked, once, through an opaque handle', async () => {
    let dialogAnswer: string | null = null;
    test = await createTestStation({ pickManifestFile: async () => dialogAnswer });
    const { station, dataDir } = test;
    const call = (name: string, input: unknown) => station.dispatcher.dispatch(name, input, { host: 'electron' });
    await call('settings.set', { environment: 'test' });
    const file = join(dataDir, 'today.csv');
    writeFileSync(file, 'orderId,orderRef\nORD-1,REF-1\n');
    dialogAnswer = file;

    const pick = await call('imports.pick', {});
    expect(pick).toMatchObject({ ok: true, value: { fileName: 'today.csv', sizeBytes: 29 } });
    if (!pick.ok) return;
    const { handle } = pick.value as { handle: string };
    expect(handle).not.toContain(dataDir);
    expect(handle).not.toContain('today');
    expect(await call('imports.manifest', { source: { kind: 'picked', handle } })).toMatchObject({ ok: true, value: { fileName: 'today.csv', inserted: 1 } });
    // Single use: the same handle does not open the file again.
    expect(await call('imports.manifest', { source: { kind: 'picked', handle } })).toMatchObject({ ok: false, error: { code: 'IMPORT_FAILED', message: expect.stringContaining('Choose the file again') } });
    // Even in the desktop app, a path from the screen is refused.
    expect(await call('imports.manifest', { source: { kind: 'path', path: file } })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });

    dialogAnswer = null;
    expect(await call('imports.pick', {})).toEqual({ ok: true, value: null });
  });
});

describe('import ids', () => {
  it('answers a reused importId with a clear conflict, leaving the first import and the index as they were', async () => {
    test = await createTestStation();
    const call = (name: string, input: unknown) => test!.station.dispatcher.dispatch(name, input, { host: 'web' });
    await call('settings.set', { environment: 'test' });
    expect(await call('imports.manifest', { source: csvContent('first.csv', ['orderId,orderRef', 'ORD-1,REF-1']), importId: 'shift-1' })).toMatchObject({ ok: true, value: { importId: 'shift-1', inserted: 1 } });

    const again = await call('imports.manifest', { source: csvContent('second.csv', ['orderId,orderRef', 'ORD-2,REF-2']), importId: 'shift-1' });
    expect(again).toMatchObject({ ok: false, error: { code: 'IMPORT_FAILED', message: expect.stringMatching(/^The import id "shift-1" is already used by an import that finished \(started .+\)\. Give each import its own id\.$/) } });
    expect(await call('orders.lookup', { scan: 'ORD-2', remote: false })).toMatchObject({ ok: false, error: { code: 'ORDER_NOT_FOUND' } });
    expect(await call('imports.recent', {})).toMatchObject({ ok: true, value: [{ importId: 'shift-1', fileName: 'first.csv', state: 'finished', inserted: 1 }] });
  });
});
