/**
 * The weights orders were created with, on both engines: kept in grams per environment and order,
 * a later creation's weight wins, nothing kept for a weight that is no weight, and a handover's
 * worth of orders read back in one call (more than one statement's worth of ids).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCreatedWeights, type CreatedWeights } from '../../../src/main/shipping/created-weights';
import { engineFactories, type EngineUnderTest } from './engines';

describe.each(engineFactories)('the weights orders were created with: $name', (factory) => {
  let store: EngineUnderTest;
  let weights: CreatedWeights;

  beforeAll(async () => {
    store = await factory.open();
    weights = createCreatedWeights(store.engine, () => new Date('2026-11-24T06:00:00.000Z'));
  });
  afterAll(async () => {
    await store?.dispose();
  });

  it('keeps each order’s weight in whole grams, per environment, the latest creation winning', async () => {
    await weights.record('sandbox', 'ORD-1', 1200);
    await weights.record('sandbox', 'ORD-2', 850.4);
    await weights.record('test', 'ORD-1', 3000);
    await weights.record('sandbox', 'ORD-2', 900);
    expect(await weights.of('sandbox', ['ORD-1', 'ORD-2', 'ORD-3'])).toEqual(new Map([['ORD-1', 1200], ['ORD-2', 900]]));
    expect(await weights.of('test', ['ORD-1'])).toEqual(new Map([['ORD-1', 3000]]));
  });

  it('keeps nothing for an order created without a weight', async () => {
    for (const grams of [null, undefined, 0, -5, Number.NaN]) await weights.record('sandbox', 'ORD-NONE', grams);
    expect(await weights.of('sandbox', ['ORD-NONE'])).toEqual(new Map());
  });

  it('reads a whole day’s orders at once', async () => {
    const ids = Array.from({ length: 1200 }, (_, index) => `DAY-${index}`);
    for (const id of ids.filter((_, index) => index % 100 === 0)) await weights.record('live', id, 500);
    const found = await weights.of('live', [...ids, ...ids]);
    expect([...found.keys()].sort()).toEqual(ids.filter((_, index) => index % 100 === 0).sort());
    expect(await weights.of('live', [])).toEqual(new Map());
  });
});
