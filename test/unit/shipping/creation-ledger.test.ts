import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CreationLedger, serviceRefFor } from '../../../src/main/shipping/creation-ledger';
import { openDatabase, type StationDatabase } from '../../../src/main/store/database';

describe('the creation ledger', () => {
  let dir: string;
  let first: StationDatabase;
  let second: StationDatabase;
  let ledger: CreationLedger;
  let otherProcess: CreationLedger;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ledger-'));
    first = openDatabase(join(dir, 'station.db'));
    second = openDatabase(join(dir, 'station.db'));
    ledger = new CreationLedger(first, 'bench-a');
    otherProcess = new CreationLedger(second, 'bench-b');
  });

  afterEach(() => {
    first.close();
    second.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives each parcel its own service orderRef, the first parcel the shop\'s own', () => {
    expect([1, 2, 3].map((parcel) => serviceRefFor('NW-1', parcel))).toEqual(['NW-1', 'NW-1-P2', 'NW-1-P3']);
  });

  it('lets exactly one of two processes take a parcel to post it', () => {
    ledger.intend('test', 'NW-1', 1, 2);
    otherProcess.intend('test', 'NW-1', 1, 2);
    expect(ledger.claim('test', 'NW-1', 1, 2)).toBe(true);
    expect(otherProcess.claim('test', 'NW-1', 1, 2)).toBe(false);
  });

  it('never lets an unknown or created parcel be taken again, but a rejected one may be', () => {
    for (const [parcel, settle] of [
      [1, () => ledger.markUnknown('test', 'NW-2', 1, 'timed out')],
      [2, () => ledger.markCreated('test', 'NW-2', 2, { orderId: 'o-2', barcode: 'DT2', bundleId: 'B' })],
      [3, () => ledger.markRejected('test', 'NW-2', 3, 'HTTP 400')],
    ] as const) {
      ledger.intend('test', 'NW-2', parcel, 3);
      expect(ledger.claim('test', 'NW-2', parcel, 3)).toBe(true);
      settle();
    }
    expect(ledger.parcels('test', 'NW-2').map((entry) => entry.state)).toEqual(['unknown', 'created', 'rejected']);
    expect([1, 2, 3].map((parcel) => otherProcess.claim('test', 'NW-2', parcel, 3))).toEqual([false, false, true]);
  });

  it('settles an unknown parcel from a status event carrying its orderRef, once, and ignores other environments', () => {
    ledger.intend('test', 'NW-3', 2, 2);
    ledger.claim('test', 'NW-3', 2, 2);
    ledger.markUnknown('test', 'NW-3', 2, 'connection dropped');
    expect(ledger.resolveFromEvent('live', 'NW-3-P2', { orderId: 'o-9', barcode: null, bundleId: null })).toBeNull();
    expect(ledger.resolveFromEvent('test', 'NW-3-P2', { orderId: 'o-3', barcode: 'DT3', bundleId: 'B3' })).toMatchObject({ state: 'created', orderId: 'o-3', barcode: 'DT3' });
    expect(ledger.resolveFromEvent('test', 'NW-3-P2', { orderId: 'o-other', barcode: null, bundleId: null })).toBeNull();
    expect(ledger.entry('test', 'NW-3', 2)?.orderId).toBe('o-3');
  });

  it('records a lead\'s decision with name and reason, and refuses one without them or for a parcel that is not unknown', () => {
    ledger.intend('test', 'NW-4', 1, 1);
    ledger.claim('test', 'NW-4', 1, 1);
    expect(() => ledger.decide('test', 'NW-4', 1, { exists: false }, { operator: 'Lea', reason: 'not in the dashboard' })).toThrow(/posting, not unknown/);
    ledger.markUnknown('test', 'NW-4', 1, 'timed out');
    expect(() => ledger.decide('test', 'NW-4', 1, { exists: false }, { operator: ' ', reason: 'x' })).toThrow(/name and a reason/);
    const decided = ledger.decide('test', 'NW-4', 1, { exists: false }, { operator: 'Lea', reason: 'not in the dashboard' });
    expect(decided).toMatchObject({ state: 'rejected', decidedBy: 'Lea', reason: 'Decided by Lea: not in the dashboard' });
    expect(ledger.claim('test', 'NW-4', 1, 1)).toBe(true);
  });

  it('turns parcels another process left posting into unknown at start, and leaves its own alone', () => {
    otherProcess.intend('test', 'NW-5', 1, 1);
    otherProcess.claim('test', 'NW-5', 1, 1);
    ledger.intend('test', 'NW-6', 1, 1);
    ledger.claim('test', 'NW-6', 1, 1);
    expect(ledger.recoverInterrupted()).toBe(1);
    expect(ledger.entry('test', 'NW-5', 1)?.state).toBe('unknown');
    expect(ledger.entry('test', 'NW-6', 1)?.state).toBe('posting');
    // The other process's answer still lands: its order was created after all.
    otherProcess.markCreated('test', 'NW-5', 1, { orderId: 'o-5', barcode: null, bundleId: null });
    expect(ledger.entry('test', 'NW-5', 1)?.state).toBe('created');
  });
});
