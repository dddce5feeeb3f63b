/**
 * The shipping commands as a user types them, in this process, on an embedded sandbox: import,
 * ship with --parcels, the checks, coverage and the pickup-point search, each with --json.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createEmbeddedSandbox, type EmbeddedSandbox } from '../../../src/main/embedded-sandbox';
import { runCliIn } from '../../support/cli';
import { memoryKeyStore } from '../../support/station';

describe('shipping commands', () => {
  let dataDir: string;
  let sandbox: EmbeddedSandbox;
  const cli = (...argv: string[]) => runCliIn(dataDir, { sandbox, keyStore: memoryKeyStore() }, argv);

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'station-ship-cli-'));
    sandbox = createEmbeddedSandbox({ seedSize: 'small', rateLimit: { requestsPerSecond: 0 }, faults: { labelDelayMs: 0 } });
    await sandbox.start();
  });

  afterAll(async () => {
    await sandbox.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('imports a to-ship file and ships an order as 2 parcels of one bundle', async () => {
    const file = join(dataDir, 'orders.csv');
    writeFileSync(file, 'orderRef;locationId;deliveryStreet;deliveryNumber;deliveryPostalCode;deliveryCity;deliveryCountry;deliveryName\nCLI-1;1101;Damrak;20;1012 LH;Amsterdam;NL;Jan Bakker\n');
    const imported = await cli('import-to-ship', file);
    expect(imported.stdout).toContain('1 new, 0 updated, 0 rejected');
    const shipped = await cli('ship', 'CLI-1', '--parcels', '2', '--json');
    expect(shipped.code).toBe(0);
    const outcome = z
      .object({ outcome: z.literal('shipped'), parcels: z.array(z.object({ parcel: z.number(), parcelCount: z.number(), bundleId: z.string(), printed: z.string() })) })
      .parse(JSON.parse(shipped.stdout));
    expect(outcome.parcels.map((parcel) => `${parcel.parcel}/${parcel.parcelCount} ${parcel.printed}`)).toEqual(['1/2 printed', '2/2 printed']);
    expect(outcome.parcels[0]!.bundleId).toBe(outcome.parcels[1]!.bundleId);
  });

  it('answers the postal-code check, the address check, coverage and the pickup-point search', async () => {
    const served = await cli('check-postal-code', '1101', '--postal-code', '1012 lh', '--country', 'nl', '--json');
    expect(JSON.parse(served.stdout)).toMatchObject({ deliverable: true });
    const far = await cli('check-postal-code', '1101', '--postal-code', '9711KT', '--country', 'NL');
    expect(far.code).toBe(1);
    expect(far.stdout).toContain('NOT served: OUT_OF_AREA');
    const address = await cli('check-address', '1101', '--street', 'damrak', '--number', '20', '--postal-code', '1012lh', '--country', 'NL', '--json');
    expect(JSON.parse(address.stdout)).toMatchObject({ deliverable: true, resolvedAddress: { postalCode: '1012 LH', city: 'Amsterdam' } });
    const coverage = await cli('coverage', '1101', '--json');
    expect(JSON.parse(coverage.stdout)).toMatchObject({ coverage: { NL: expect.arrayContaining(['1', '8011AB']) as unknown } });
    const points = await cli('pickup-points', '--country', 'NL', '--postal-code', '1012LH', '--type', 'PARCEL_LOCKER', '--max', '5', '--json');
    const list = z.object({ points: z.array(z.object({ type: z.string(), distanceMeters: z.number() })) }).parse(JSON.parse(points.stdout));
    expect(list.points.length).toBeGreaterThan(0);
    expect(list.points.every((point) => point.type === 'PARCEL_LOCKER')).toBe(true);
    const distances = list.points.map((point) => point.distanceMeters);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
  });

  it('lists no unknown creations and refuses a decision on a parcel that is not unknown', async () => {
    expect((await cli('creations')).stdout).toContain('No parcel has an unknown creation outcome.');
    const decided = await cli('creations', '--decide', 'CLI-1', '--parcel', '1', '--not-created', '--operator', 'Lea', '--reason', 'checked the dashboard');
    expect(decided.code).toBe(1);
    expect(decided.stderr).toContain('is created, not unknown');
  });
});
