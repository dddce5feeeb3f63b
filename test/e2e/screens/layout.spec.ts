import { scanOutcomeKinds, type ScanOutcomeKindName as ScanOutcomeKind } from '../../../src/shared/scan-outcome-kinds';
import { addZebraInAnyLanguage, draftOrder, expect, test } from './bench-fixture';
import { benchSizes, chooseLanguageBeforeStart, clippedInside, screenLanguages } from './layout-support';
import { importManifestOnSetup, openStation, scanLikeAScanner, screenshotDir } from './station-page';
import type { Page } from '@playwright/test';
import type { VirtualZebra } from '../../../src/sandbox/printer/virtual-zebra';
import type { SandboxOrder } from '../../../src/main/embedded-sandbox';

interface Bench {
  page: Page;
  zebra: VirtualZebra;
  orders: readonly SandboxOrder[];
}

/** A scanned code far longer than any barcode (a pasted line): shown shortened, never pushing the words out. */
const longScan = `LONG-${'0123456789ABCDEFGHIJ'.repeat(15)}`.slice(0, 300);

/**
 * How each outcome is brought about at a real bench (the station's sandbox, a virtual Zebra of the
 * test). A Record over the outcome kinds: a new kind does not compile until it has a scenario here.
 * Several variants of a kind are each checked ("failed": a 300-character scan, an order not found, a
 * cancelled order).
 */
const scenarios: Record<ScanOutcomeKind, { name: string; bring(bench: Bench): Promise<void> }[]> = {
  printed: [{ name: 'printed', bring: async ({ page, orders }) => scanLikeAScanner(page, draftOrder(orders, 0).orderRef) }],
  duplicate: [{ name: 'duplicate', bring: async ({ page, orders }) => scanLikeAScanner(page, draftOrder(orders, 0).orderRef) }],
  elsewhere: [
    {
      name: 'elsewhere',
      bring: async ({ page, orders }) => {
        const expected = orders.find((order) => order.status === 'expected');
        if (!expected) throw new Error('the sandbox has no expected order today');
        await scanLikeAScanner(page, expected.orderRef);
      },
    },
  ],
  ambiguous: [
    {
      // A ref six orders share (the sandbox's and five of a lead's file): five listed to choose from, and the rest counted.
      name: 'ambiguous',
      bring: async ({ page, orders }) => {
        const ref = draftOrder(orders, 2).orderRef;
        const rows = [1, 2, 3, 4, 5].map((n) => `SHARED-ORDER-${n},${ref},Klant met een lange naam ${n},BND-SHARED-${n}`);
        await importManifestOnSetup(page, { name: 'shared-ref.csv', text: ['orderId,orderRef,recipient,bundleId', ...rows].join('\n') });
        await page.keyboard.press('F1');
        await scanLikeAScanner(page, ref);
      },
    },
  ],
  failed: [
    { name: 'failed-300-characters', bring: async ({ page }) => scanLikeAScanner(page, longScan) },
    { name: 'failed-not-found', bring: async ({ page }) => scanLikeAScanner(page, 'NOT-AN-ORDER-4471/2026.B') },
    {
      // The panel first seen cut at 1024×768: its headline's top and its action line were hidden.
      name: 'failed-cancelled',
      bring: async ({ page, orders }) => {
        const cancelled = orders.find((order) => order.status === 'cancelled');
        if (!cancelled) throw new Error('the sandbox has no cancelled order today');
        await scanLikeAScanner(page, cancelled.orderRef);
      },
    },
  ],
  'command-unused': [{ name: 'command-unused', bring: async ({ page }) => scanLikeAScanner(page, 'STATION:REPRINT') }],
  waiting: [
    {
      name: 'waiting',
      bring: async ({ page, zebra, orders }) => {
        await addZebraInAnyLanguage(page, zebra);
        await zebra.setPaperOut(true);
        await page.keyboard.press('F1');
        await scanLikeAScanner(page, draftOrder(orders, 1).orderRef);
      },
    },
  ],
};

/** The panel's states besides outcomes, each brought about from the outcome before it. */
const otherPanelStates: { state: string; after: ScanOutcomeKind; bring(page: Page): Promise<void> }[] = [
  // Enter on the amber panel asks why the label is printed again.
  { state: 'reason', after: 'duplicate', bring: async (page) => page.keyboard.press('Enter') },
  // The lead's void card: the next parcel scanned is to be cancelled.
  { state: 'void-armed', after: 'command-unused', bring: async (page) => scanLikeAScanner(page, 'STATION:VOID') },
];

// The order matters where one outcome needs another first (a duplicate needs the print); the
// printer is made to fail last.
const order: ScanOutcomeKind[] = ['printed', 'duplicate', 'elsewhere', 'ambiguous', 'failed', 'command-unused', 'waiting'];

test('the scenarios cover every outcome kind of the scan panel', () => {
  expect([...order].sort()).toEqual([...scanOutcomeKinds].sort());
});

for (const language of screenLanguages()) {
  test(`every scan outcome fits its panel in "${language}" at ${benchSizes.map((size) => `${size.width}×${size.height}`).join(' and ')}`, async ({ page, webHost, zebra, sandboxOrders }) => {
    test.setTimeout(180_000);
    await chooseLanguageBeforeStart(page, language);
    await openStation(page, webHost);
    await expect(page.locator('html')).toHaveAttribute('lang', language);
    const bench: Bench = { page, zebra, orders: sandboxOrders };

    for (const kind of order) {
      for (const scenario of scenarios[kind]) {
        await page.setViewportSize(benchSizes[benchSizes.length - 1]!);
        if (kind === 'command-unused') await page.keyboard.press('Escape');
        await scenario.bring(bench);
        await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', kind, { timeout: 20_000 });
        await checkEverySize(page, language, scenario.name);
      }
      for (const other of otherPanelStates.filter((candidate) => candidate.after === kind)) {
        await other.bring(page);
        await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', other.state, { timeout: 20_000 });
        await checkEverySize(page, language, other.state);
        await page.keyboard.press('Escape');
      }
    }
    await zebra.setPaperOut(false);
  });
}

/**
 * The scan panel and the navigation at each bench size: nothing cut, the action in view. A picture
 * of each at 1024×768, the bench's size; at a larger size only of what failed there (each picture
 * costs this 2-core machine a fifth of a second).
 */
async function checkEverySize(page: Page, language: string, name: string): Promise<void> {
  for (const size of benchSizes) {
    await page.setViewportSize(size);
    const picture = () => page.screenshot({ path: `${screenshotDir}/layout-${name}-${language}-${size.width}x${size.height}.png` });
    if (size === benchSizes[0]) await picture();
    try {
      const panel = page.getByTestId('scan-result');
      // The action line (what to do) is on screen for every outcome that has one.
      const action = panel.locator('.result-action, .result-actions').first();
      if ((await action.count()) > 0) await expect(action).toBeInViewport({ ratio: 1 });
      expect(await clippedInside(panel), `${name} in ${language} at ${size.width}×${size.height}`).toEqual([]);
      const nav = page.locator('nav.nav');
      expect(await clippedInside(nav), `navigation in ${language} at ${size.width}×${size.height}`).toEqual([]);
    } catch (failure) {
      if (size !== benchSizes[0]) await picture();
      throw failure;
    }
  }
}

test('every screen fits across at 1024×768: the navigation on one row, tables scrolling inside their own area', async ({ page, webHost, sandboxOrders }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await openStation(page, webHost);
  // A label in the journal, so History has a row to lay out.
  await scanLikeAScanner(page, draftOrder(sandboxOrders, 0).orderRef);
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'printed', { timeout: 20_000 });
  const navButton = page.getByTestId('nav-scan');
  for (const [key, screen] of [
    ['F1', 'scan'],
    ['F2', 'shift'],
    ['F3', 'printers'],
    ['F4', 'setup'],
    ['F5', 'history'],
    ['Alt+6', 'floor'],
  ] as const) {
    await page.keyboard.press(key);
    await expect(page.getByTestId(`nav-${screen}`)).toHaveAttribute('aria-current', 'page');
    // The screen has loaded (its heading takes the focus) and shows its content.
    await expect(page.locator('main h1')).toBeFocused();
    if (screen === 'shift') await expect(page.getByTestId('bundles-to-print')).toBeVisible({ timeout: 20_000 });
    if (screen === 'history') await expect(page.locator('.history-row').first()).toBeVisible({ timeout: 20_000 });
    if (screen === 'floor') await expect(page.getByTestId('floor-bench')).toHaveCount(1);
    await page.screenshot({ path: `${screenshotDir}/layout-screen-${screen}-1024x768.png` });
    // Nothing runs off the right edge: the page never scrolls sideways, the main area neither.
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth'), `${screen}: page wider than the window`).toBe(true);
    expect(await page.evaluate("(() => { const main = document.querySelector('main'); return main.scrollWidth <= main.clientWidth; })()"), `${screen}: main area wider than its box`).toBe(true);
    // One row of navigation: every button on the first one's line.
    const top = (await navButton.boundingBox())!.y;
    for (const id of ['scan', 'shift', 'printers', 'setup', 'history', 'floor']) expect((await page.getByTestId(`nav-${id}`).boundingBox())!.y, `${id} on the navigation's row`).toBe(top);
  }
});
