/**
 * One screen-fit check for every screen and dialog (issue 23): at 1024×768 and 1280×800, in every
 * language, every text and control is whole and in view, or inside a scroll area whose scrollbar
 * is in view; the scan result panel fits without scrolling. A person's way there: sign in, print
 * a label, visit each screen, open each dialog.
 */
import type { Page } from '@playwright/test';
import { addZebraInAnyLanguage, draftOrder, expect, test } from './bench-fixture';
import { benchSizes, chooseLanguageBeforeStart, screenLanguages } from './layout-support';
import { unfitOnScreen } from './screen-fit';
import { openStation, scanLikeAScanner, screenshotDir } from './station-page';

/** The bench's Zebra, named longer than the sandbox's "Virtual Zebra (sandbox)", so no panel gets an easier fit. */
const benchPrinterName = 'Zebra ZD421 at packing bench 2';

/** A ref this bench printed (to scan again) and one it did not (to cancel). */
interface Refs {
  printed: string;
  unprinted: string;
}

interface State {
  name: string;
  /** Brings the state about from the Scan screen with nothing open. */
  bring(page: Page, refs: Refs): Promise<void>;
  /** Back to the Scan screen with nothing open. */
  leave?(page: Page): Promise<void>;
}

const screenOpen = async (page: Page, key: string, screen: string) => {
  await page.keyboard.press(key);
  await expect(page.getByTestId(`nav-${screen}`)).toHaveAttribute('aria-current', 'page');
  await expect(page.locator('main h1')).toBeFocused();
};
const dialogOpen = (page: Page) => expect(page.locator('dialog[open]')).toBeVisible({ timeout: 20_000 });
const escape = async (page: Page) => {
  await page.keyboard.press('Escape');
  await expect(page.locator('dialog[open]')).toHaveCount(0);
  await page.keyboard.press('F1');
};

const states: State[] = [
  { name: 'scan-printed', bring: async () => undefined },
  {
    name: 'scan-duplicate',
    bring: async (page, refs) => {
      await scanLikeAScanner(page, refs.printed);
      await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'duplicate', { timeout: 20_000 });
    },
  },
  {
    name: 'scan-reason',
    bring: async (page, refs) => {
      await scanLikeAScanner(page, refs.printed);
      await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'duplicate', { timeout: 20_000 });
      // The reprint card's barcode, as a lead answers the amber panel from across the bench.
      await scanLikeAScanner(page, 'STATION:REPRINT');
      await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'reason');
    },
    leave: async (page) => page.keyboard.press('Escape'),
  },
  {
    name: 'shift-start',
    bring: async (page) => {
      await screenOpen(page, 'F2', 'shift');
      await expect(page.getByTestId('bundles-to-print')).toBeVisible({ timeout: 20_000 });
    },
  },
  { name: 'printers', bring: async (page) => screenOpen(page, 'F3', 'printers') },
  {
    name: 'setup',
    bring: async (page) => {
      await screenOpen(page, 'F4', 'setup');
      await expect(page.getByTestId('keys-section')).toBeVisible({ timeout: 20_000 });
    },
  },
  {
    name: 'history',
    bring: async (page) => {
      await screenOpen(page, 'F5', 'history');
      await expect(page.locator('.history-row').first()).toBeVisible({ timeout: 20_000 });
    },
  },
  {
    // On the bench's own file the Floor is this bench alone, with how to join the warehouse store.
    name: 'floor-local',
    bring: async (page) => {
      await screenOpen(page, 'Alt+6', 'floor');
      await expect(page.getByTestId('floor-local')).toBeVisible({ timeout: 20_000 });
      await expect(page.getByTestId('floor-bench')).toHaveCount(1);
    },
  },
  {
    name: 'dialog-void',
    bring: async (page, refs) => {
      await scanLikeAScanner(page, 'STATION:VOID');
      await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'void-armed');
      await scanLikeAScanner(page, refs.unprinted);
      await dialogOpen(page);
    },
    leave: escape,
  },
  {
    name: 'dialog-live',
    bring: async (page) => {
      await screenOpen(page, 'F4', 'setup');
      await page.getByTestId('environment-live').click();
      await dialogOpen(page);
    },
    leave: escape,
  },
  {
    name: 'dialog-new-shipment',
    bring: async (page) => {
      await page.getByTestId('new-shipment-open').click();
      await expect(page.getByTestId('new-shipment')).toBeVisible();
    },
    leave: escape,
  },
  {
    name: 'dialog-guide',
    bring: async (page) => {
      await screenOpen(page, 'F4', 'setup');
      await page.getByTestId('guide-open-setup').click();
      await expect(page.getByTestId('guide')).toBeVisible();
    },
    leave: escape,
  },
  {
    name: 'dialog-preview',
    bring: async (page) => {
      await page.keyboard.press('Shift+F6');
      await expect(page.getByTestId('preview-dialog').getByTestId('preview-image')).toHaveCount(1, { timeout: 30_000 });
    },
    leave: escape,
  },
];

for (const language of screenLanguages()) {
  test(`every screen and dialog fits in "${language}" at ${benchSizes.map((size) => `${size.width}×${size.height}`).join(' and ')}`, async ({ page, webHost, zebra, sandboxOrders }) => {
    test.setTimeout(240_000);
    await chooseLanguageBeforeStart(page, language);
    await page.setViewportSize(benchSizes[0]);
    // The slowest scanner the station allows: screenshots at two sizes load this 2-core machine between scans.
    await openStation(page, webHost, { scannerGapMs: 200 });
    const unfit: Record<string, string[]> = {};
    const check = async (name: string) => {
      for (const size of benchSizes) {
        await page.setViewportSize(size);
        const problems = await unfitOnScreen(page);
        // A picture of each state at 1024×768, the bench's size; at a larger size only of what does not fit there.
        if (size === benchSizes[0] || problems.length > 0) await page.screenshot({ path: `${screenshotDir}/fit-${name}-${language}-${size.width}x${size.height}.png` });
        if (problems.length > 0) unfit[`${name} at ${size.width}×${size.height}`] = problems;
      }
      await page.setViewportSize(benchSizes[0]);
    };

    // The first screen a shift sees: who is packing?
    await expect(page.getByTestId('operator-prompt')).toBeVisible();
    await check('scan-sign-in');
    await page.getByTestId('operator-name').fill('Małgorzata Wiśniewska-Kowalczyk');
    await page.getByTestId('operator-sign-in').click();
    await expect(page.getByTestId('operator-prompt')).toHaveCount(0);
    // The bench's own Zebra, at 20 labels a second (the sandbox's prints one a second), under a
    // name longer than the sandbox printer's, which the scan panel and History show.
    await addZebraInAnyLanguage(page, zebra, benchPrinterName);
    await page.keyboard.press('F1');
    await expect(page.getByTestId('nav-scan')).toHaveAttribute('aria-current', 'page');
    // A morning's labels, so History has rows to lay out (more than one screen of them).
    let printed: string | null = null;
    for (const nth of [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0]) {
      const ref = draftOrder(sandboxOrders, nth).orderRef;
      await scanLikeAScanner(page, ref);
      // This scan's own outcome, not the one before it still on the panel.
      const result = page.getByTestId('scan-result').filter({ hasText: ref });
      await expect(result).toHaveAttribute('data-state', /printed|failed/, { timeout: 20_000 });
      if ((await result.getAttribute('data-state')) === 'printed') printed = ref;
    }
    if (printed === null) throw new Error('no label printed on the sandbox');
    const refs: Refs = { printed, unprinted: draftOrder(sandboxOrders, 1).orderRef };

    for (const state of states) {
      await state.bring(page, refs);
      await check(state.name);
      if (state.leave) await state.leave(page);
      else await page.keyboard.press('F1');
      await expect(page.getByTestId('nav-scan')).toHaveAttribute('aria-current', 'page');
    }
    expect(unfit, `cut or out of view in "${language}"`).toEqual({});
  });
}
