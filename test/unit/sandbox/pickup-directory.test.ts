import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { distanceMeters } from '../../../src/sandbox/geo/distance';
import { createGeocoder } from '../../../src/sandbox/geo/geocoder';
import { createPickupDirectory } from '../../../src/sandbox/pickup/directory';
import { createRandom, resumeRandom } from '../../../src/sandbox/random';

const geocoder = createGeocoder();
const network = () => createPickupDirectory({ size: 1000, random: createRandom('unit/points'), geocoder });
const fingerprint = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16);

describe('the pickup point network', () => {
  it('is the same network for the same seed as when every point was drawn in full, one after another', () => {
    // Points' documents are drawn when first asked for; the seed promises the same points, ids
    // and documents as ever (docs/sandbox.md). These values are those of the network drawn whole.
    const points = network().all();
    expect(points).toHaveLength(993);
    expect(points[0]!.pudoId).toBe('pp_24cm92tkprsmwp');
    expect(points[992]!.pudoId).toBe('pp_tfddp2uj8wq4x4');
    expect(fingerprint(points.map((point) => point.document))).toBe('3ce03cc6e09001a2');
  });

  it('gives a point the same document whichever points were asked for before it', () => {
    const forwards = network().all();
    const backwards = network().all();
    const inOrder = forwards.map((point) => point.document);
    const reversed = [...backwards].reverse().map((point) => point.document).reverse();
    expect(reversed).toEqual(inOrder);
    for (const point of forwards) {
      expect(point.document.pudoId).toBe(point.pudoId);
      expect(point.document.type).toBe(point.type);
      expect(point.document.geo).toEqual(point.geo);
      expect(point.document.address.countryCode).toBe(point.countryCode);
    }
  });

  it('finds every point within the radius, nearest first, and no other', () => {
    const directory = network();
    const origin = { lat: 52.37, lng: 4.9 };
    for (const maxDistanceKm of [0.5, 3, 25, 400]) {
      const found = directory.search({ ...origin, maxDistanceKm, maxResults: 100 });
      const within = directory.all().filter((point) => distanceMeters(origin, point.geo) <= maxDistanceKm * 1000);
      expect(found.totalFound, `${maxDistanceKm} km`).toBe(within.length);
      const distances = found.points.map((point) => point.distanceMeters);
      expect(distances).toEqual([...distances].sort((a, b) => a - b));
      expect(directory.nearby({ ...origin, maxDistanceKm, maxResults: 100 }).points.map(({ point }) => point.pudoId)).toEqual(found.points.map((point) => point.pudoId));
    }
  });
});

describe('a generator resumed from a position', () => {
  it('draws what the generator drew from there, and forks as it does', () => {
    const random = createRandom('unit/resume');
    random.next();
    const position = random.position();
    const resumed = resumeRandom(position);
    const draws = Array.from({ length: 20 }, () => random.next());
    expect(Array.from({ length: 20 }, () => resumed.next())).toEqual(draws);
    expect(resumeRandom(position).fork('a').next()).toBe(createRandom('unit/resume').fork('a').next());
  });
});
