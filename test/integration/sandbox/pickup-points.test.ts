import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ pickupPoints: 4000 });
});
afterAll(() => h.close());

const search = (query: string, options: { key?: string; env?: 'test' | 'live' } = {}) => h.api('GET', `/pickup-points?${query}`, options);
const dayPattern = /^(monday|tuesday|wednesday|thursday|friday|saturday|sunday)$/;

describe('GET /pickup-points', () => {
  it('by country and postal code: points nearest first, each with distanceMeters, and totalFound', async () => {
    const reply = await search('countryCode=NL&postalCode=1017GC&maxResults=20');
    expect(reply.status).toBe(200);
    const { points, totalFound } = reply.body;
    expect(points).toHaveLength(20);
    expect(totalFound).toBeGreaterThan(20);
    const distances = points.map((p: { distanceMeters: number }) => p.distanceMeters);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    for (const point of points) {
      expect(point).toMatchObject({
        pudoId: expect.any(String),
        carrierPudoId: expect.any(String),
        type: expect.stringMatching(/^(SERVICE_POINT|PARCEL_LOCKER|POST_OFFICE|MAILBOX)$/),
        name: expect.any(String),
        address: { street: expect.any(String), postalCode: expect.stringMatching(/^\d{4}[A-Z]{2}$/), city: expect.any(String), countryCode: 'NL' },
        geo: { lat: expect.any(Number), lng: expect.any(Number) },
        openingHours: { open24h: expect.any(Boolean), weekdays: expect.any(Object) },
        facilities: { carParking: expect.any(Boolean), bikeParking: expect.any(Boolean), accessibility: expect.any(Boolean), waitingArea: expect.any(Boolean) },
        distanceMeters: expect.any(Number),
      });
      for (const [day, slots] of Object.entries(point.openingHours.weekdays)) {
        expect(day).toMatch(dayPattern);
        for (const slot of slots as { openTime: string; closeTime: string }[]) expect(slot).toEqual({ openTime: expect.stringMatching(/^\d\d:\d\d$/), closeTime: expect.stringMatching(/^\d\d:\d\d$/) });
      }
    }
  });

  it('by coordinate: the same search as by the postal code\'s place, nearest first', async () => {
    const reply = await search('lat=50.8503&lng=4.3517&maxResults=5');
    expect(reply.body.points).toHaveLength(5);
    expect(reply.body.points[0].address.city).toBe('Bruxelles');
    expect(reply.body.points[0].distanceMeters).toBeLessThanOrEqual(reply.body.points[4].distanceMeters);
  });

  it('maxResults truncates: totalFound stays the number of points near the address', async () => {
    const all = await search('countryCode=DE&postalCode=50667&maxResults=100');
    const one = await search('countryCode=DE&postalCode=50667&maxResults=1');
    expect(one.body.points).toHaveLength(1);
    expect(one.body.totalFound).toBe(all.body.totalFound);
    expect(one.body.points[0]).toEqual(all.body.points[0]);
  });

  it('maxResults bounds are 1 to 100 inclusive; outside is 400 with the error body', async () => {
    expect((await search('countryCode=NL&postalCode=1017GC&maxResults=1')).status).toBe(200);
    expect((await search('countryCode=NL&postalCode=1017GC&maxResults=100')).status).toBe(200);
    for (const value of ['0', '101', '-1', 'ten', '2.5', '']) {
      const reply = await search(`countryCode=NL&postalCode=1017GC&maxResults=${value}`);
      expect(reply.status, value).toBe(400);
      expect(reply.body).toEqual({ statusCode: 400, message: [expect.stringMatching(/^maxResults /)], error: 'Bad Request' });
    }
  });

  it('the types filter maps to point types as the spec\'s table, and may be repeated', async () => {
    const types = async (query: string) =>
      new Set(((await search(`countryCode=NL&postalCode=3011AB&maxResults=100&maxDistanceKm=30&${query}`)).body.points as { type: string }[]).map((p) => p.type));
    expect(await types('')).toEqual(new Set(['SERVICE_POINT', 'PARCEL_LOCKER', 'POST_OFFICE', 'MAILBOX']));
    expect(await types('types=PARCEL_LOCKER')).toEqual(new Set(['PARCEL_LOCKER']));
    expect(await types('types=PICKUP_DROPOFF_POINT')).toEqual(new Set(['SERVICE_POINT', 'POST_OFFICE']));
    expect(await types('types=MAILBOX_POBOX')).toEqual(new Set(['MAILBOX']));
    expect(await types('types=MAILBOX_POBOX&types=PARCEL_LOCKER')).toEqual(new Set(['MAILBOX', 'PARCEL_LOCKER']));
    const wrong = await search('countryCode=NL&postalCode=3011AB&types=SERVICE_POINT');
    expect(wrong.status).toBe(400);
    expect(wrong.body.message[0]).toMatch(/^types\.0 must be one of the following values: PARCEL_LOCKER, PICKUP_DROPOFF_POINT, MAILBOX_POBOX/);
  });

  it('maxDistanceKm limits the radius; when it excludes everything the answer is an empty 200', async () => {
    const near = await search('countryCode=NL&postalCode=1017GC&maxResults=100&maxDistanceKm=2');
    for (const point of near.body.points) expect(point.distanceMeters).toBeLessThanOrEqual(2000);
    const wide = await search('countryCode=NL&postalCode=1017GC&maxResults=100&maxDistanceKm=20');
    expect(wide.body.totalFound).toBeGreaterThan(near.body.totalFound);
    const none = await search('lat=54.9&lng=3.0&maxDistanceKm=5');
    expect(none).toMatchObject({ status: 200, body: { points: [], totalFound: 0 } });
    expect((await search('countryCode=NL&postalCode=1017GC&maxDistanceKm=0')).status).toBe(400);
  });

  it('empty list (200) for a country the network does not cover and for a postal code it cannot find', async () => {
    expect((await search('countryCode=FR&postalCode=75001')).body).toEqual({ points: [], totalFound: 0 });
    expect((await search('countryCode=NL&postalCode=NOPE')).body).toEqual({ points: [], totalFound: 0 });
  });

  it('countryCode and postalCode are required unless lat and lng are given (400)', async () => {
    for (const query of ['', 'countryCode=NL', 'postalCode=1017GC', 'lat=52.1', 'lng=4.3', 'countryCode=NLD&postalCode=1017GC', 'lat=north&lng=4']) {
      const reply = await search(query);
      expect(reply.status, query).toBe(400);
      expect(reply.body).toMatchObject({ statusCode: 400, message: expect.any(Array), error: 'Bad Request' });
    }
  });

  it('is not scoped to the caller: every company and both environments get the same points', async () => {
    const query = 'countryCode=BE&postalCode=9000&maxResults=15';
    const answers = await Promise.all([
      search(query, { key: h.key(0) }),
      search(query, { key: h.key(1) }),
      search(query, { key: h.key(2) }),
      search(query, { key: h.key(0, 'live'), env: 'live' }),
    ]);
    for (const answer of answers) expect(answer.body).toEqual(answers[0]!.body);
  });

  it('the network holds a few thousand points in NL, BE and DE, of all four types', async () => {
    const countries = new Map<string, Set<string>>();
    let total = 0;
    for (const [lat, lng] of [[52.2, 5.3], [50.85, 4.35], [51.2, 7.0], [52.5, 13.4], [48.1, 11.6], [53.5, 10.0]]) {
      const reply = await search(`lat=${lat}&lng=${lng}&maxDistanceKm=1000&maxResults=100`);
      total = Math.max(total, reply.body.totalFound);
      for (const point of reply.body.points) {
        const types = countries.get(point.address.countryCode) ?? new Set();
        types.add(point.type);
        countries.set(point.address.countryCode, types);
      }
    }
    expect(total).toBeGreaterThanOrEqual(3000);
    expect([...countries.keys()].sort()).toEqual(['BE', 'DE', 'NL']);
    const allTypes = new Set([...countries.values()].flatMap((set) => [...set]));
    expect(allTypes).toEqual(new Set(['SERVICE_POINT', 'PARCEL_LOCKER', 'POST_OFFICE', 'MAILBOX']));
  });
});
