/**
 * Recipients' personal data the station was handed for shipping is kept for 30 days: a station
 * that starts with orders to ship and an ended upload older than that deletes them (and keeps
 * what is younger, and an upload still running or paused).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createTestStation, type TestStation } from '../../support/station';
import { waitUntil } from '../../support/wait-until';

const header = 'orderRef,locationId,deliveryStreet,deliveryNumber,deliveryPostalCode,deliveryCity,deliveryCountry,deliveryName,deliveryEmail';
const csv = (refs: string[]) => Buffer.from([header, ...refs.map((ref) => `${ref},1101,Damrak,1,1012 LG,Amsterdam,NL,Anna de Vries,anna@example.com`)].join('\n')).toString('base64');

let test: TestStation | null = null;
afterEach(async () => {
  await test?.dispose();
  test = null;
});

describe('personal data retention', () => {
  it('deletes orders to ship and ended uploads untouched for over 30 days when the station starts, and keeps the rest', async () => {
    let now = new Date('2026-11-01T08:00:00Z');
    test = await createTestStation({ retentionClock: () => now });
    const { station } = test;
    const call = async (name: string, input: unknown) => {
      const result = await station.dispatcher.dispatch(name, input, { host: 'web' });
      if (!result.ok) throw new Error(`${name}: ${result.error.message}`);
      return result.value;
    };
    await call('settings.set', { environment: 'test' });
    await call('shipping.import', { source: { kind: 'bytes', fileName: 'old.csv', base64: csv(['OLD-1', 'OLD-2']) } });
    await call('upload.prepare', { source: { kind: 'content', fileName: 'old-upload.csv', base64: csv(['UP-1']) }, locations: ['1101'] });
    // Written 40 days before the clock below, as a station would have written them then.
    const db = station.services.db;
    const longAgo = '2026-10-20T08:00:00.000Z';
    db.prepare('UPDATE to_ship_orders SET updated_at = ?').run(longAgo);
    db.prepare('UPDATE uploads SET updated_at = ?').run(longAgo);
    await call('shipping.import', { source: { kind: 'bytes', fileName: 'new.csv', base64: csv(['NEW-1']) } });
    const count = (table: string) => (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
    expect([count('to_ship_orders'), count('uploads'), count('upload_rows')]).toEqual([3, 1, 1]);

    now = new Date('2026-11-29T08:00:00Z');
    await station.start({ webhooks: false });
    // Before: nothing was ever deleted.
    await waitUntil(() => count('to_ship_orders') === 1, 'orders to ship past retention deleted');
    await waitUntil(() => count('uploads') === 0, 'the old upload deleted');
    expect(count('upload_rows')).toBe(0);
    expect(await call('shipping.toShip', { orderRef: 'NEW-1' })).toMatchObject({ orderRef: 'NEW-1', recipient: { email: 'anna@example.com' } });
    expect(await call('shipping.toShip', { orderRef: 'OLD-1' })).toBeNull();
    expect(test.logLines.join('\n')).toContain('personal data past its retention deleted');
  });
});
