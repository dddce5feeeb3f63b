/**
 * How a lead reads the floor: the benches that need them first, then by bench number as people
 * count benches, and the filters by fault, by run and by operator.
 */
import { describe, expect, it } from 'vitest';
import type { FloorBenchData, FloorPrinterData, FloorRunData } from '../../../src/shared/contract/floor';
import { benchConcern, filterFloor, findBench, orderFloor } from '../../../src/shared/floor/floor-order';
import { floorBench } from '../../support/floor-reports';

const printer = (patch: Partial<FloorPrinterData> = {}): FloorPrinterData => ({
  printerId: 'p-1',
  name: 'Zebra',
  state: 'ready',
  fault: null,
  busyWith: null,
  inBuffer: 0,
  roles: ['single', 'bundles'],
  ...patch,
});

const run = (patch: Partial<FloorRunData> = {}): FloorRunData => ({
  runId: 'run-0001',
  kind: 'bundles',
  printerId: 'p-1',
  printerName: 'Zebra',
  operator: 'Sam',
  state: 'running',
  pause: null,
  done: 3,
  total: 10,
  printed: 3,
  failed: 0,
  live: true,
  lastAction: null,
  ...patch,
});

const bench = (name: string, patch: Partial<FloorBenchData> = {}): FloorBenchData => floorBench(name, { printers: [printer()], ...patch });

describe('the order of the floor', () => {
  it('puts silent benches first, then printer faults, uncertain labels, paused runs, printers busy elsewhere, the rest, and closed benches last', () => {
    const floor = [
      bench('Bench 1', { answering: 'stopped', stoppedAt: '2026-05-04T10:00:00.000Z' }),
      bench('Bench 2'),
      bench('Bench 3', { printers: [printer({ state: 'busy', busyWith: { benchName: 'Bench 9', since: '2026-05-04T10:40:00.000Z' } })] }),
      bench('Bench 4', { runs: [run({ state: 'paused', pause: { by: 'user', fault: null, lead: { operator: 'Anna', benchName: 'Bench 2' }, since: '2026-05-04T10:41:00.000Z' } })] }),
      bench('Bench 5', { uncertainCount: 1 }),
      bench('Bench 6', { printers: [printer({ state: 'paused', fault: 'paper-out' })] }),
      bench('Bench 7', { answering: 'silent' }),
    ];
    expect(orderFloor(floor).map((seen) => `${seen.stationName}: ${benchConcern(seen)}`)).toEqual([
      'Bench 7: silent',
      'Bench 6: fault',
      'Bench 5: uncertain',
      'Bench 4: paused',
      'Bench 3: busy',
      'Bench 2: fine',
      'Bench 1: stopped',
    ]);
  });

  it('counts a run held by a printer fault as a fault even when its printer is not one of the bench defaults', () => {
    const held = bench('Bench 8', { runs: [run({ state: 'paused', pause: { by: 'printer', fault: 'head-open', lead: null, since: '2026-05-04T10:41:00.000Z' } })] });
    expect(benchConcern(held)).toBe('fault');
  });

  it('numbers benches as people do within one concern: Bench 2 before Bench 10', () => {
    expect(orderFloor([bench('Bench 10'), bench('bench 2'), bench('Bench 1')]).map((seen) => seen.stationName)).toEqual(['Bench 1', 'bench 2', 'Bench 10']);
  });
});

describe('filtering the floor', () => {
  const floor = [
    bench('Bench 1', { operator: 'Anna', printers: [printer({ state: 'paused', fault: 'paper-out' })] }),
    bench('Bench 2', { operator: 'Piotr', printers: [printer({ state: 'offline', fault: 'offline' })] }),
    bench('Bench 3', { operator: 'Sam', runs: [run({ runId: 'a1b2c3d4-run', operator: 'Jana' })] }),
    bench('Bench 4', { operator: '', answering: 'silent' }),
  ];
  const names = (list: FloorBenchData[]) => list.map((seen) => seen.stationName);

  it('by fault: any fault (not answering counts), a named fault, or the benches not answering', () => {
    expect(names(filterFloor(floor, { fault: 'any' }))).toEqual(['Bench 1', 'Bench 2', 'Bench 4']);
    expect(names(filterFloor(floor, { fault: 'paper-out' }))).toEqual(['Bench 1']);
    expect(names(filterFloor(floor, { fault: 'offline' }))).toEqual(['Bench 2']);
    expect(names(filterFloor(floor, { fault: 'silent' }))).toEqual(['Bench 4']);
  });

  it('by run (part of its id, any case) and by operator (signed in, or running a run there)', () => {
    expect(names(filterFloor(floor, { run: 'B2C3' }))).toEqual(['Bench 3']);
    expect(names(filterFloor(floor, { operator: 'anna' }))).toEqual(['Bench 1']);
    expect(names(filterFloor(floor, { operator: 'jana' }))).toEqual(['Bench 3']);
    expect(names(filterFloor(floor, { fault: 'any', operator: 'piotr' }))).toEqual(['Bench 2']);
    expect(names(filterFloor(floor, {}))).toEqual(['Bench 1', 'Bench 2', 'Bench 3', 'Bench 4']);
  });
});

describe('naming a bench at the command line', () => {
  const floor = [bench('Bench 1'), bench('Bench 2'), bench('Dock', { benchId: 'dock-a' }), bench('Dock', { benchId: 'dock-b' })];

  it('finds it by id, by its name, or by its name in another case; says when a name is two benches', () => {
    expect(findBench(floor, 'id-Bench 2')).toMatchObject({ stationName: 'Bench 2' });
    expect(findBench(floor, 'Bench 1')).toMatchObject({ benchId: 'id-Bench 1' });
    expect(findBench(floor, 'bench 1')).toMatchObject({ benchId: 'id-Bench 1' });
    expect(findBench(floor, 'Dock')).toEqual({ ambiguous: [floor[2], floor[3]] });
    expect(findBench(floor, 'Bench 9')).toBeNull();
  });
});
