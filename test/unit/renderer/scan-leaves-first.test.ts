import { describe, expect, it } from 'vitest';
import type { ScanAnswerData } from '../../../src/shared/contract/printing';
import type { Shipment } from '../../../src/shared/contract/shipping';
import { submitOrShip } from '../../../src/renderer/src/ship/submit-or-ship';
import { createStationStores, type StationStores } from '../../../src/renderer/src/state/stores';
import { journalEntry } from './journal-entry';
import { ok, scriptedStation } from './scripted-station';
import { waitUntil } from '../../support/wait-until';

const shipment: Shipment = {
  orderRef: 'SHIP-7',
  locationId: '1',
  recipient: { name: 'Anouk Bakker', email: null, phone: null },
  address: { street: 'Dorpsstraat', houseNumber: '4', suffix: '', postalCode: '1234AB', city: 'Utrecht', countryCode: 'NL' },
  parcels: 2,
  pudoId: null,
  weight: null,
  dimensions: null,
  signature: false,
  notAtNeighbour: false,
  deliveryNote: null,
  deliveryDate: null,
  name: null,
};

const printedAnswer = (scan: string): ScanAnswerData => ({
  outcome: 'printed',
  scan,
  order: { orderId: `id-${scan}`, orderRef: scan, barcode: null, recipient: 'J. Jansen', bundleId: null },
  entry: journalEntry(1, { runId: 'run-1', orderId: `id-${scan}`, orderRef: scan, state: 'sent', printedAt: null }),
  printer: { id: 'p1', name: 'Bench 3 Zebra' },
  reprint: false,
  proofFollows: true,
  elapsedMs: 21,
});

/** The page's stores on a scripted station, as the screen makes them (English, no sound, nothing kept). */
function storesOn(station: ReturnType<typeof scriptedStation>): StationStores {
  return createStationStores({
    station: station.station,
    storage: { getItem: () => null, setItem: () => undefined },
    browserLanguages: ['en'],
    sounds: { play: () => undefined, close: async () => undefined },
    preview: {} as StationStores['preview'],
  });
}

/** The page's stores on a scripted station; `changes` lists every state change of every store, in order, with the calls made so far. */
function bench(answer: (scan: string) => ScanAnswerData) {
  const station = scriptedStation({ 'printing.scan': ({ scan }) => ok(answer(scan)) });
  const stores = storesOn(station);
  const changes: { store: string; callsSoFar: string[] }[] = [];
  for (const name of ['app', 'scan', 'ship', 'sandbox', 'shift'] as const) {
    stores[name].subscribe(() => changes.push({ store: name, callsSoFar: station.calls.map((call) => call.name) }));
  }
  return { stores, station, changes };
}

describe('a scan leaves the page first', () => {
  it('sends its one call before any state of the screen changes, and asks nothing else before it', async () => {
    const { stores, station, changes } = bench(printedAnswer);
    const handled = submitOrShip(stores, 'ORD-1');
    // Synchronously, within the scanner's key event: the call is out, nothing else asked, nothing changed.
    expect(station.calls.map((call) => call.name)).toEqual(['printing.scan']);
    expect(station.calls[0]?.input).toEqual({ scan: 'ORD-1' });
    expect(changes.every((change) => change.callsSoFar.includes('printing.scan'))).toBe(true);
    await handled;
    const panel = stores.scan.getState().panel;
    expect(panel.state === 'outcome' && panel.outcome.kind).toBe('printed');
    expect(stores.scan.getState().recent.map((label) => label.orderRef)).toEqual(['ORD-1']);
    // No ship check of its own, no closing of a ship panel that was never open.
    expect(station.calls.map((call) => call.name)).toEqual(['printing.scan']);
    expect(changes.filter((change) => change.store === 'ship')).toEqual([]);
  });

  it('leaves the scanner’s "reading…" cue alone while the call is out, and clears it in the one change that shows the outcome', async () => {
    let answer: (() => void) | null = null;
    const station = scriptedStation({ 'printing.scan': ({ scan }) => new Promise((resolve) => (answer = () => resolve(ok(printedAnswer(scan))))) });
    const stores = storesOn(station);
    stores.scan.getState().setCue({ state: 'reading', characters: 5 });
    const scanChanges: string[] = [];
    stores.scan.subscribe((state) => scanChanges.push(`${state.panel.state}/${state.cue.state}`));
    const handled = submitOrShip(stores, 'ORD-5');
    await waitUntil(() => answer !== null, 'the scan call at the station');
    // Nothing on the screen changed between the Enter and the answer: no drawing competes with the scan.
    expect(scanChanges).toEqual([]);
    expect(stores.scan.getState().cue).toEqual({ state: 'reading', characters: 5 });
    (answer as (() => void) | null)?.();
    await handled;
    expect(scanChanges).toEqual(['outcome/none']);
  });

  it('opens the ship panel when the station answers the slip is an order to ship, with the count it offers', async () => {
    const { stores, station } = bench((scan) => ({ outcome: 'to-ship', scan, shipment, parcels: 3 }));
    await submitOrShip(stores, 'SHIP-7');
    const panel = stores.ship.getState().panel;
    expect(panel.state).toBe('ready');
    expect(panel.state === 'ready' && panel.parcels).toBe(3);
    expect(panel.state === 'ready' && panel.shipment.orderRef).toBe('SHIP-7');
    // The scan panel shows what it showed before (no "printing" left behind), and nothing was listed as printed.
    expect(stores.scan.getState().panel.state).toBe('idle');
    expect(stores.scan.getState().recent).toEqual([]);
    expect(station.calls.map((call) => call.name)).toEqual(['printing.scan']);
  });

  it('a printed scan closes an open ship panel; a ship under way takes no scan', async () => {
    const { stores, station } = bench(printedAnswer);
    stores.ship.getState().open(shipment);
    await submitOrShip(stores, 'ORD-2');
    expect(stores.ship.getState().panel.state).toBe('closed');
    const panel = stores.scan.getState().panel;
    expect(panel.state === 'outcome' && panel.outcome.kind).toBe('printed');

    stores.ship.setState({ panel: { state: 'working', shipment, parcels: 2 } });
    await submitOrShip(stores, 'ORD-3');
    expect(station.named('printing.scan').map((call) => call.input)).toEqual([{ scan: 'ORD-2' }]);
    expect(stores.ship.getState().panel.state).toBe('working');
  });

  it('a second scan while the first is in hand waits its turn, and goes out as soon as the first is answered', async () => {
    let answerFirst: (() => void) | null = null;
    const station = scriptedStation({
      'printing.scan': ({ scan }) =>
        scan === 'ORD-1' ? new Promise((resolve) => (answerFirst = () => resolve(ok(printedAnswer(scan))))) : ok(printedAnswer(scan)),
    });
    const stores = storesOn(station);
    const first = submitOrShip(stores, 'ORD-1');
    const second = submitOrShip(stores, 'ORD-2');
    expect(station.named('printing.scan').map((call) => call.input)).toEqual([{ scan: 'ORD-1' }]);
    (answerFirst as (() => void) | null)?.();
    await Promise.all([first, second]);
    expect(station.named('printing.scan').map((call) => call.input)).toEqual([{ scan: 'ORD-1' }, { scan: 'ORD-2' }]);
    expect(stores.scan.getState().recent.map((label) => label.orderRef)).toEqual(['ORD-2', 'ORD-1']);
  });
});

describe('what the screen draws for a scan', () => {
  it('plays the outcome’s sound after the change that shows the outcome, not before it', async () => {
    const station = scriptedStation({ 'printing.scan': ({ scan }) => ok(printedAnswer(scan)) });
    const played: string[] = [];
    const stores = createStationStores({
      station: station.station,
      storage: { getItem: () => null, setItem: () => undefined },
      browserLanguages: ['en'],
      sounds: { play: (kind) => played.push(kind), close: async () => undefined },
      preview: {} as StationStores['preview'],
    });
    const playedAtOutcome: string[][] = [];
    const outcomeDrawn = new Promise<void>((resolve) =>
      stores.scan.subscribe((state) => {
        if (state.panel.state !== 'outcome') return;
        playedAtOutcome.push([...played]);
        // What React does with the change: it draws it in a microtask.
        queueMicrotask(() => {
          playedAtOutcome.push([...played]);
          resolve();
        });
      }),
    );
    await submitOrShip(stores, 'ORD-9');
    await outcomeDrawn;
    expect(playedAtOutcome).toEqual([[], []]);
    await waitUntil(() => played.length > 0, 'the outcome’s sound');
    expect(played).toEqual(['printed']);
  });


  it('goes straight to the outcome when the answer comes in a blink, and says "printing" only when it is slow', async () => {
    const answers = new Map<string, () => void>();
    const station = scriptedStation({
      'printing.scan': ({ scan }) => new Promise((resolve) => answers.set(scan, () => resolve(ok(printedAnswer(scan))))),
    });
    const stores = storesOn(station);
    const states: string[] = [];
    stores.scan.subscribe((state, previous) => {
      if (state.panel !== previous.panel) states.push(state.panel.state);
    });
    const quick = submitOrShip(stores, 'ORD-1');
    answers.get('ORD-1')?.();
    await quick;
    expect(states).toEqual(['outcome']);

    states.length = 0;
    const slow = submitOrShip(stores, 'ORD-2');
    await waitUntil(() => states.length > 0, 'the scan panel to change', 5000, 5);
    expect(states).toEqual(['working']);
    // Meanwhile the sandbox panel's refreshes hold off: a scan is in hand.
    expect(stores.scan.getState().inHand()).toBe(true);
    answers.get('ORD-2')?.();
    await slow;
    expect(states).toEqual(['working', 'outcome']);
    expect(stores.scan.getState().inHand()).toBe(false);
  });
});
