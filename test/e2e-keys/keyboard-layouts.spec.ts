import { mkdirSync, writeFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import type { SandboxOrder } from '../../src/main/embedded-sandbox';
import type { VirtualZebra } from '../../src/sandbox/printer/virtual-zebra';
import { addVirtualZebra, draftOrder } from '../e2e/screens/bench-fixture';
import type { WebHostProcess } from '../e2e/web-host-fixture';
import { openStation, screenshotDir } from '../e2e/screens/station-page';
import { expect, focusPage, scansSentBy, test } from './x-bench-fixture';
import { frenchKeys, germanKeys, personPace, scannerPace, usKeys, type Pace, type XKeyboard } from './x-keyboard';

/**
 * Scans as a warehouse's benches make them: a keyboard-wedge scanner at its factory setting (it
 * presses the keys of a US keyboard) and one in "Alt + keypad" mode, their keys pressed by keycode
 * on an X server whose layout is the bench PC's (setxkbmap us, gb, de, fr, be, pl, Caps Lock on
 * or off), into Debian's Chromium on the built web host. Each must print its own order on the
 * bench's Zebra. The table of what each bench scanned, what the station read and what came out is
 * written to test-results/keyboard-layouts.md.
 */

interface Row {
  bench: string;
  scanned: string;
  read: string;
  outcome: string;
}
const table: Row[] = [];

test.afterAll(() => {
  mkdirSync('test-results', { recursive: true });
  const show = (text: string) => `\`${text.replaceAll('\x1D', '<GS>')}\``;
  const lines = ['| bench | scanned | the station read | outcome |', '|---|---|---|---|', ...table.map((row) => `| ${row.bench} | ${show(row.scanned)} | ${show(row.read)} | ${row.outcome} |`)];
  writeFileSync('test-results/keyboard-layouts.md', `${lines.join('\n')}\n`);
});

/** A bench with the test's Zebra printing its scans, the page in front of the X server's keys. */
async function openBench(page: Page, webHost: WebHostProcess, zebra: VirtualZebra, keyboard: XKeyboard, options: { scannerGapMs?: 'default' } = {}): Promise<string[]> {
  const sent = scansSentBy(page);
  await openStation(page, webHost, options);
  await addVirtualZebra(page, zebra);
  await page.keyboard.press('F1');
  await focusPage(page, keyboard);
  return sent;
}

/** Waits for the scan the page sends and the order it prints; returns what the station read. */
async function expectPrinted(page: Page, zebra: VirtualZebra, sent: string[], before: { scans: number; labels: number }, order: SandboxOrder): Promise<string> {
  await expect.poll(() => sent.length, { timeout: 10_000 }).toBe(before.scans + 1);
  await expect(page.getByTestId('result-order')).toHaveText(order.orderRef ?? '', { timeout: 20_000 });
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'printed');
  const labels = await zebra.waitForLabels(before.labels + 1, 20_000);
  expect(labels).toHaveLength(before.labels + 1);
  // The label that came out is this order's: its parcel barcode is on it.
  expect(labels.at(-1)?.zpl).toContain(order.barcode);
  return sent[before.scans] ?? '';
}

const counts = (sent: string[], zebra: VirtualZebra) => ({ scans: sent.length, labels: zebra.printed().length });

/** A US scanner scans at a bench of the given layout (Caps Lock on for the scan when asked): the order prints, read exactly as the barcode holds it. */
async function scanOnLayoutPrints(
  bench: { page: Page; zebra: VirtualZebra; keyboard: XKeyboard; sent: string[] },
  row: { bench: string; layout: string; capsLock?: boolean },
  scanned: string,
  order: SandboxOrder,
): Promise<void> {
  const { page, zebra, keyboard, sent } = bench;
  await keyboard.setLayout(row.layout);
  if (row.capsLock) await keyboard.chord(['CapsLock']);
  const before = counts(sent, zebra);
  await keyboard.type(scanned, usKeys, scannerPace);
  const read = await expectPrinted(page, zebra, sent, before, order);
  if (row.capsLock) await keyboard.chord(['CapsLock']);
  table.push({ bench: row.bench, scanned, read, outcome: `printed ${order.orderRef}` });
  // Read by the keys' positions: exactly what the barcode holds, Caps Lock or not.
  expect(read).toBe(scanned);
}

test('a US-layout scanner prints the right order on every bench layout, with Caps Lock on or off', async ({ page, webHost, zebra, keyboard, sandboxOrders }) => {
  test.setTimeout(180_000);
  const sent = await openBench(page, webHost, zebra, keyboard);
  const orders = [...Array(10).keys()].map((nth) => draftOrder(sandboxOrders, nth));
  const rows: { bench: string; layout: string; capsLock?: boolean; what: 'orderRef' | 'barcode' }[] = [
    { bench: 'US layout, order ref', layout: 'us', what: 'orderRef' },
    { bench: 'UK layout, order ref', layout: 'gb', what: 'orderRef' },
    { bench: 'US layout with Caps Lock on, order ref', layout: 'us', capsLock: true, what: 'orderRef' },
    { bench: 'German QWERTZ, parcel barcode', layout: 'de', what: 'barcode' },
    { bench: 'German QWERTZ, order ref', layout: 'de', what: 'orderRef' },
    { bench: 'French AZERTY, parcel barcode', layout: 'fr', what: 'barcode' },
    { bench: 'French AZERTY with Caps Lock on, order ref', layout: 'fr', capsLock: true, what: 'orderRef' },
    { bench: 'Belgian AZERTY, order ref', layout: 'be', what: 'orderRef' },
    { bench: 'Belgian AZERTY, parcel barcode', layout: 'be', what: 'barcode' },
    { bench: 'Polish, order ref', layout: 'pl', what: 'orderRef' },
  ];
  for (const [index, row] of rows.entries()) {
    const order = orders[index]!;
    const scanned = row.what === 'orderRef' ? order.orderRef! : order.barcode!;
    await test.step(row.bench, () => scanOnLayoutPrints({ page, zebra, keyboard, sent }, row, scanned, order));
  }
});

test('a scanner in "Alt + keypad" mode prints the right order, Num Lock on or off, with and without the leading 0', async ({ page, webHost, zebra, keyboard, sandboxOrders }) => {
  test.setTimeout(120_000);
  const sent = await openBench(page, webHost, zebra, keyboard);
  const cases = [
    { bench: 'Alt + keypad (Alt+0nnn), French AZERTY, Num Lock off', layout: 'fr', numLock: false, leadingZero: true, what: 'orderRef' },
    { bench: 'Alt + keypad (Alt+nnn), German QWERTZ, Num Lock on', layout: 'de', numLock: true, leadingZero: false, what: 'orderRef' },
    { bench: 'Alt + keypad (Alt+nnn), Belgian AZERTY, Num Lock off, parcel barcode', layout: 'be', numLock: false, leadingZero: false, what: 'barcode' },
  ] as const;
  for (const [index, row] of cases.entries()) {
    const order = draftOrder(sandboxOrders, 20 + index);
    const scanned = row.what === 'orderRef' ? order.orderRef! : order.barcode!;
    await test.step(row.bench, async () => {
      await keyboard.setLayout(row.layout);
      if (row.numLock) await keyboard.chord(['NumLock']);
      const before = counts(sent, zebra);
      await keyboard.typeAltCodes(scanned, scannerPace, row.leadingZero);
      const read = await expectPrinted(page, zebra, sent, before, order);
      if (row.numLock) await keyboard.chord(['NumLock']);
      table.push({ bench: row.bench, scanned, read, outcome: `printed ${order.orderRef}` });
      expect(read).toBe(scanned);
    });
  }
});

test('GS1 data keeps its group separator on a German PC, sent as Ctrl + the key right of Ü or as Alt+029', async ({ page, webHost, zebra, keyboard }) => {
  const sent = await openBench(page, webHost, zebra, keyboard);
  await keyboard.setLayout('de');
  const [first, second] = ['0108712345678906', '10ABC123'];
  const gs1 = `${first}\x1D${second}`;

  await keyboard.send([
    ...keyboard.strokeEvents(first, usKeys, scannerPace),
    ...keyboard.chordEvents(['ControlLeft', 'BracketRight'], scannerPace),
    ...keyboard.strokeEvents(second, usKeys, scannerPace),
    ...keyboard.tapEvents('Enter', scannerPace),
  ]);
  await expect.poll(() => sent.length).toBe(1);
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'failed', { timeout: 20_000 });
  expect(sent[0]).toBe(gs1);
  table.push({ bench: 'German QWERTZ, GS1 data with GS as Ctrl+] (the key types "+" there)', scanned: gs1, read: sent[0]!, outcome: 'not found (one scan, separator kept)' });

  await keyboard.send([...keyboard.strokeEvents(first, usKeys, scannerPace), ...keyboard.altCodeEvents('029', scannerPace), ...keyboard.strokeEvents(second, usKeys, scannerPace), ...keyboard.tapEvents('Enter', scannerPace)]);
  await expect.poll(() => sent.length).toBe(2);
  expect(sent[1]).toBe(gs1);
  table.push({ bench: 'German QWERTZ, GS1 data with GS as Alt+029', scanned: gs1, read: sent[1]!, outcome: 'not found (one scan, separator kept)' });
  expect(zebra.printed()).toHaveLength(0);
});

test('a person on a German keyboard types a ref with "-" into the entry field, and it prints', async ({ page, webHost, zebra, keyboard, sandboxOrders }) => {
  const sent = await openBench(page, webHost, zebra, keyboard);
  await keyboard.setLayout('de');
  const order = draftOrder(sandboxOrders, 30);
  await page.getByTestId('manual-entry').focus();
  const before = counts(sent, zebra);
  // The keys a German keyboard has the ref's characters on ("-" is right of "."), at a person's pace.
  await keyboard.type(order.orderRef!, germanKeys, personPace);
  const read = await expectPrinted(page, zebra, sent, before, order);
  expect(read).toBe(order.orderRef);
  table.push({ bench: 'a person on a German keyboard types the ref in the entry field', scanned: order.orderRef!, read, outcome: `printed ${order.orderRef}` });
});

test('a scan read through the wrong layout is named as such, in English and German, and prints nothing', async ({ page, webHost, zebra, keyboard, sandboxOrders }) => {
  const sent = await openBench(page, webHost, zebra, keyboard);
  // Text with a 6 or an 8, the digits whose keys French and Belgian AZERTY type differently: the mix-up names one layout.
  const used = new Set<string>();
  const telling = (field: 'orderRef' | 'barcode') => {
    for (let nth = 31; ; nth += 1) {
      const order = draftOrder(sandboxOrders, nth);
      if (used.has(order.orderId) || !/[68]/.test(order[field] ?? '')) continue;
      used.add(order.orderId);
      return order;
    }
  };
  const order = telling('barcode');
  // A US scanner aimed while the cursor is in the entry field of a French PC: the field takes the
  // PC's characters (what a person types there is the PC's layout).
  await keyboard.setLayout('fr');
  await page.getByTestId('manual-entry').focus();
  await keyboard.type(order.barcode!, usKeys, scannerPace);
  await expect.poll(() => sent.length).toBe(1);
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'failed', { timeout: 20_000 });
  await expect(page.getByTestId('result-error-title')).toHaveText('This looks like a scanner typing through a French keyboard layout');
  await expect(page.getByTestId('result-error-action')).toHaveText(
    `As the US scanner meant it, the scan is ${order.barcode}. Nothing was printed: check Setup › Scanner (F4), then scan again`,
  );
  expect(sent[0]).not.toBe(order.barcode);
  table.push({ bench: 'French AZERTY, US scanner into the entry field (the PC’s layout)', scanned: order.barcode!, read: sent[0]!, outcome: 'named: "This looks like a scanner typing through a French keyboard layout"' });
  await page.screenshot({ path: `${screenshotDir}/scan-layout-mixup-en-1024x768.png` });

  // The same in German, on a Belgian PC with an order ref.
  await page.keyboard.press('F4');
  await page.getByTestId('setting-language').selectOption('de');
  await page.keyboard.press('F1');
  await keyboard.setLayout('be');
  const other = telling('orderRef');
  await page.getByTestId('manual-entry').focus();
  await keyboard.type(other.orderRef!, usKeys, scannerPace);
  await expect.poll(() => sent.length).toBe(2);
  await expect(page.getByTestId('result-error-title')).toHaveText('Das sieht nach einem Scanner aus, der über das Tastaturlayout „Belgisch“ tippt');
  await expect(page.getByTestId('result-error-action')).toContainText(other.orderRef!);
  table.push({ bench: 'Belgian AZERTY, US scanner into the entry field (the PC’s layout)', scanned: other.orderRef!, read: sent[1]!, outcome: 'named: "… Tastaturlayout „Belgisch“ …"' });
  await page.screenshot({ path: `${screenshotDir}/scan-layout-mixup-de-1024x768.png` });
  // Never printed on the guess.
  expect(zebra.printed()).toHaveLength(0);
});

test('Shift start takes a bundle slip and any screen an operator badge from a US scanner on an AZERTY PC', async ({ page, webHost, zebra, keyboard, sandboxOrders }) => {
  await openBench(page, webHost, zebra, keyboard);
  await keyboard.setLayout('fr');
  const bundle = sandboxOrders.find((order) => /[AQWZM]/.test(order.bundleId))?.bundleId ?? sandboxOrders[0]!.bundleId;
  await page.keyboard.press('F2');
  await expect(page.getByTestId(`bundle-${bundle}`)).toBeVisible({ timeout: 20_000 });
  await keyboard.type(bundle, usKeys, scannerPace);
  await expect(page.getByTestId(`bundle-${bundle}`).locator('input')).toBeChecked();
  table.push({ bench: 'French AZERTY, Shift start, bundle slip', scanned: bundle, read: bundle, outcome: 'bundle chosen' });

  const badge = 'STATION:OPERATOR:Marie Wauters';
  await keyboard.type(badge, usKeys, scannerPace);
  await expect(page.getByTestId('operator-badge-name')).toHaveText('Marie Wauters');
  table.push({ bench: 'French AZERTY, operator badge', scanned: badge, read: badge, outcome: 'signed in Marie Wauters' });
});

test('at the scan gap a new bench starts with, a US scanner prints on Dutch and Swiss German PCs, and GS1 keeps its separator on AZERTY', async ({ page, webHost, zebra, keyboard, sandboxOrders }) => {
  test.setTimeout(120_000);
  // The station's own scan gap (not the screen tests' wider one): what a bench out of the box reads.
  const sent = await openBench(page, webHost, zebra, keyboard, { scannerGapMs: 'default' });
  const rows = [
    { bench: 'Dutch PC (setxkbmap nl), order ref, station’s default scan gap', layout: 'nl', capsLock: false, nth: 50 },
    { bench: 'Swiss German PC (setxkbmap ch, a layout the station does not know), order ref, default scan gap', layout: 'ch', capsLock: false, nth: 51 },
    { bench: 'Swiss German PC with Caps Lock on, parcel barcode, default scan gap', layout: 'ch', capsLock: true, nth: 52 },
  ];
  for (const row of rows) {
    const order = draftOrder(sandboxOrders, row.nth);
    const scanned = row.capsLock ? order.barcode! : order.orderRef!;
    await test.step(row.bench, () => scanOnLayoutPrints({ page, zebra, keyboard, sent }, row, scanned, order));
  }

  // GS1 on Belgian AZERTY: the key right of P types "$" there; Alt+29 without the leading 0.
  await keyboard.setLayout('be');
  const [first, second] = ['0108712345678906', '10ABC123'];
  const gs1 = `${first}\x1D${second}`;
  const separators = [
    { name: 'Ctrl+] (the key types "$" there)', events: keyboard.chordEvents(['ControlLeft', 'BracketRight'], scannerPace) },
    { name: 'Alt+29', events: keyboard.altCodeEvents('29', scannerPace) },
  ];
  for (const separator of separators) {
    const before = sent.length;
    await keyboard.send([...keyboard.strokeEvents(first, usKeys, scannerPace), ...separator.events, ...keyboard.strokeEvents(second, usKeys, scannerPace), ...keyboard.tapEvents('Enter', scannerPace)]);
    await expect.poll(() => sent.length).toBe(before + 1);
    expect(sent[before]).toBe(gs1);
    table.push({ bench: `Belgian AZERTY, GS1 data with GS as ${separator.name}, default scan gap`, scanned: gs1, read: sent[before]!, outcome: 'not found (one scan, separator kept)' });
  }
});

test('on a French PC a US scanner opens a slip to ship and reprints with the card, and a person typing fast keeps the PC’s layout', async ({ page, webHost, zebra, keyboard, sandboxOrders }) => {
  test.setTimeout(120_000);
  const sent = await openBench(page, webHost, zebra, keyboard);
  await keyboard.setLayout('fr');

  // A slip of the shop's export (letters A, Q, W, Z, M, Y and "-" all sit elsewhere on AZERTY).
  const slip = 'AZQWMY-3001';
  const csv = ['orderRef,locationId,deliveryStreet,deliveryNumber,deliveryPostalCode,deliveryCity,deliveryCountry,deliveryName', `${slip},1101,Keizersgracht,100,1016 DK,Amsterdam,NL,Eva de Boer`].join('\n');
  await page.getByTestId('ship-import-file').setInputFiles({ name: 'shop-export.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(page.getByTestId('ship-import-report')).toContainText('1 new');
  await focusPage(page, keyboard);
  await keyboard.type(slip, usKeys, scannerPace);
  await expect(page.getByTestId('ship-panel')).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
  await expect(page.getByTestId('ship-recipient')).toHaveText('Eva de Boer');
  expect(sent.at(-1)).toBe(slip);
  table.push({ bench: 'French AZERTY, ship flow, slip scan', scanned: slip, read: sent.at(-1)!, outcome: 'ship panel for Eva de Boer' });
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('ship-panel')).toHaveCount(0);

  // A reprint needs a name: the badge, then the order twice, then the card.
  await keyboard.type('STATION:OPERATOR:Zoe Wauquiez', usKeys, scannerPace);
  await expect(page.getByTestId('operator-badge-name')).toHaveText('Zoe Wauquiez');
  const order = draftOrder(sandboxOrders, 53);
  let before = counts(sent, zebra);
  await keyboard.type(order.orderRef!, usKeys, scannerPace);
  await expectPrinted(page, zebra, sent, before, order);
  await keyboard.type(order.barcode!, usKeys, scannerPace);
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'duplicate', { timeout: 20_000 });
  before = counts(sent, zebra);
  await keyboard.type('STATION:REPRINT:LOST', usKeys, scannerPace);
  await expect(page.getByTestId('scan-result')).toContainText('Reprinted', { timeout: 20_000 });
  expect((await zebra.waitForLabels(before.labels + 1, 20_000)).at(-1)?.zpl).toContain(order.barcode);
  table.push({ bench: 'French AZERTY, reprint card after a duplicate', scanned: 'STATION:REPRINT:LOST', read: 'STATION:REPRINT:LOST', outcome: `reprinted ${order.orderRef}` });

  // A person typing as fast as a key every 20 ms, in the entry field and in a Setup field: the PC's layout.
  const fastPerson: Pace = { eventGapMs: 10 };
  const typed = draftOrder(sandboxOrders, 54);
  await page.getByTestId('manual-entry').focus();
  before = counts(sent, zebra);
  await keyboard.type(typed.orderRef!, frenchKeys, fastPerson);
  const read = await expectPrinted(page, zebra, sent, before, typed);
  expect(read).toBe(typed.orderRef);
  table.push({ bench: 'French AZERTY, a person types the ref in the entry field, a key every 20 ms', scanned: typed.orderRef!, read, outcome: `printed ${typed.orderRef}` });

  await page.keyboard.press('F4');
  const field = page.getByTestId('setting-operator');
  await field.fill('');
  await field.focus();
  const name = 'Zoé Aquémé-Wy';
  await keyboard.type(name, frenchKeys, fastPerson, { enter: false });
  await expect(field).toHaveValue(name);
  table.push({ bench: 'French AZERTY, a person types a name in Setup, a key every 20 ms', scanned: name, read: name, outcome: 'kept as typed' });
});
