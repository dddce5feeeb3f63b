/**
 * What a bench sees at start (issue 15): sample orders a trainee can actually print as ZPL on the
 * embedded sandbox, a scan typed with Caps Lock on, and the operator asked afresh at each start.
 * Through the station's contract, on the embedded sandbox, with real SQLite files.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeStation, type Station } from '../../../src/main/composition';
import type { SandboxOrder } from '../../../src/main/embedded-sandbox';
import { createLogger } from '../../../src/main/logging/logger';
import type { CallName, CallOutput } from '../../../src/shared/contract';
import type { StationErrorData } from '../../../src/shared/errors';
import { memoryKeyStore } from '../../support/station';

type Outcome<K extends CallName> = { ok: true; value: CallOutput<K> } | { ok: false; error: StationErrorData };

const launch = (dataDir: string): Promise<Station> =>
  composeStation({ dataDir, host: 'web', version: '0.0.0-test', logger: createLogger(() => undefined), keyStore: memoryKeyStore() });

const call = async <K extends CallName>(station: Station, name: K, input: unknown): Promise<Outcome<K>> =>
  (await station.dispatcher.dispatch(name, input, { host: 'web' })) as Outcome<K>;

const value = async <K extends CallName>(station: Station, name: K, input: unknown): Promise<CallOutput<K>> => {
  const result = await call(station, name, input);
  if (!result.ok) throw new Error(`${name}: ${result.error.code} ${result.error.message}`);
  return result.value;
};

describe('a bench at start on the embedded sandbox', () => {
  let dataDir: string;
  let station: Station;
  let todays: SandboxOrder[];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'station-bench-start-'));
    station = await launch(dataDir);
    todays = await station.services.sandbox.todaysOrders();
  });

  afterAll(async () => {
    await station.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('offers as samples only orders the sandbox knows and prints as ZPL, never one only the index remembers', async () => {
    await station.services.sandboxReady();
    // An order learnt in an earlier session (a manifest imported on the sandbox), the newest of all.
    station.services.orders.upsert('sandbox', { orderId: 'ord_not_at_the_service', orderRef: 'NW-999999-1', bundleId: 'B-OLD', status: 'draft' }, 'import');
    const pdfOnly = todays.filter((order) => !order.zplAvailable && order.status === 'draft');
    expect(pdfOnly.length).toBeGreaterThan(0);

    const { orders: samples } = await value(station, 'orders.samples', { limit: 20 });
    expect(samples.length).toBeGreaterThan(0);
    const zplIds = new Set(todays.filter((order) => order.zplAvailable).map((order) => order.orderId));
    expect(samples.filter((sample) => !zplIds.has(sample.orderId)).map((sample) => sample.orderId)).toEqual([]);
  });

  it('finds the order of a scan typed with Caps Lock on, when the exact text matches nothing', async () => {
    const order = todays.find((candidate) => candidate.status === 'draft' && /[A-Z]/.test(candidate.orderRef))!;
    const found = await value(station, 'orders.lookup', { scan: order.orderRef.toLowerCase(), remote: false });
    expect(found.order.orderId).toBe(order.orderId);
  });

  it('asks instead of guessing when two orders differ from the scan only in case', async () => {
    station.services.orders.upsert('sandbox', { orderId: 'ord_case_1', orderRef: 'case-ref-7', status: 'draft' }, 'import');
    station.services.orders.upsert('sandbox', { orderId: 'ord_case_2', orderRef: 'CASE-REF-7', status: 'draft' }, 'import');
    const result = await call(station, 'orders.lookup', { scan: 'Case-Ref-7', remote: false });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe('SCAN_AMBIGUOUS');
    // The exact text still wins on its own.
    expect((await value(station, 'orders.lookup', { scan: 'CASE-REF-7', remote: false })).order.orderId).toBe('ord_case_2');
  });

  it('answers a bench scan that fits two orders with both to choose from, and prints the one chosen by its order id', async () => {
    await station.services.sandboxReady();
    const order = todays.filter((candidate) => candidate.status === 'draft' && candidate.zplAvailable).at(-1)!;
    await station.services.orders.upsert('sandbox', { orderId: 'ord_second_under_ref', orderRef: order.orderRef, recipient: 'Piet Second', bundleId: 'BND-SECOND' }, 'import');
    const answer = await value(station, 'printing.scan', { scan: order.orderRef });
    expect(answer).toMatchObject({ outcome: 'ambiguous', scan: order.orderRef, more: 0 });
    if (answer.outcome !== 'ambiguous') return;
    expect([...answer.candidates].sort((a, b) => a.recipient!.localeCompare(b.recipient!))).toEqual(
      [
        { orderId: order.orderId, orderRef: order.orderRef, barcode: order.barcode, bundleId: order.bundleId, recipient: order.deliveryName, status: 'draft', matchedBy: ['orderRef'] },
        { orderId: 'ord_second_under_ref', orderRef: order.orderRef, barcode: null, bundleId: 'BND-SECOND', recipient: 'Piet Second', status: null, matchedBy: ['orderRef'] },
      ].sort((a, b) => a.recipient.localeCompare(b.recipient)),
    );
    // printing.print (the reprint's call, the command line's) still refuses to guess.
    expect(await call(station, 'printing.print', { scan: order.orderRef })).toMatchObject({ ok: false, error: { code: 'SCAN_AMBIGUOUS', facts: { count: 2 } } });
    expect(await value(station, 'printing.scan', { scan: order.orderId })).toMatchObject({ outcome: 'printed', order: { orderId: order.orderId, orderRef: order.orderRef } });
  });

  it('refuses a scan over 2,048 characters whole, with the reason, never a part of it', async () => {
    const result = await call(station, 'orders.lookup', { scan: `${'A'.repeat(2040)}NW-1043`, remote: false });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('SCAN_INVALID');
      expect(result.error.details).toContain('reason: too-long');
    }
  });
});

describe('the operator of a shift', () => {
  it('is kept while the station runs, and asked afresh when it starts again', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'station-shift-'));
    try {
      const first = await launch(dataDir);
      await first.start({ webhooks: false });
      expect((await value(first, 'settings.get', {})).operator).toBe('');
      await value(first, 'settings.set', { operator: 'Anna de Vries' });
      expect((await value(first, 'settings.get', {})).operator).toBe('Anna de Vries');
      await first.close();

      // A one-shot command (the CLI) next to it composes the station without starting it: the shift goes on.
      const command = await launch(dataDir);
      expect((await value(command, 'settings.get', {})).operator).toBe('Anna de Vries');
      await command.close();

      const again = await launch(dataDir);
      await again.start({ webhooks: false });
      expect((await value(again, 'settings.get', {})).operator).toBe('');
      await again.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
