import type { Page } from '@playwright/test';
import { SCANNER_CHECK_TEXT } from '../../src/shared/keyboard/scanner-check';
import { decodeBarcodesFromPng } from '../support/barcode';
import { addVirtualZebra, draftOrder } from '../e2e/screens/bench-fixture';
import { unfitOnScreen } from '../e2e/screens/screen-fit';
import { openStation, screenshotDir } from '../e2e/screens/station-page';
import { expect, focusPage, scansSentBy, test } from './x-bench-fixture';
import { frenchKeys, scannerPace, usKeys } from './x-keyboard';

/** What would be cut off on Setup, seen from its top (the check's answer is then reached by scrolling). */
async function fitsFromTheTop(page: Page): Promise<string[]> {
  await page.locator('#main').evaluate((main) => main.scrollTo(0, 0));
  return unfitOnScreen(page);
}

/**
 * Setup › Scanner: one scan of the check barcode tells the lead whether the bench's scanner is
 * read right, with real keys from an X server whose layout is the bench PC's.
 */

test('one scan of the check barcode says the scanner works, types as US, the PC is French, and scans are read right; the barcode scans on screen and on the Zebra', async ({ page, webHost, zebra, keyboard }) => {
  await openStation(page, webHost);
  await addVirtualZebra(page, zebra);
  await page.keyboard.press('F4');
  const section = page.getByTestId('scanner-section');
  await section.scrollIntoViewIfNeeded();
  await expect(page.getByTestId('scanner-verdict-waiting')).toBeVisible();
  // The barcode on the screen is the check's text in Code 128, as a scanner reading the screen sees it.
  await expect(page.getByTestId('scanner-check-barcode')).toHaveAttribute('data-drawn', 'true');
  const onScreen = await page.getByTestId('scanner-check-barcode').screenshot();
  expect(await decodeBarcodesFromPng(onScreen)).toEqual([{ symbology: 'CODE-128', data: SCANNER_CHECK_TEXT }]);
  await expect(page.getByTestId('setting-scanner-layout')).toHaveValue('us');

  // Scanned from the Scan screen: the answer is on Setup.
  await page.keyboard.press('F1');
  await keyboard.setLayout('fr');
  await focusPage(page, keyboard);
  await keyboard.type(SCANNER_CHECK_TEXT, usKeys, scannerPace);
  await expect(page.getByTestId('nav-setup')).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('scanner-verdict')).toHaveAttribute('data-reads', 'correctly');
  await expect(page.getByTestId('scanner-verdict-scanner')).toHaveText('The scanner works. It types as a US keyboard (a UK / Polish (programmers) keyboard types these keys alike).');
  await expect(page.getByTestId('scanner-verdict-pc')).toHaveText('This PC uses the French keyboard layout.');
  await expect(page.getByTestId('scanner-verdict-outcome')).toHaveText('Scans will be read correctly.');
  await expect(page.getByTestId('scanner-verdict-caps')).toHaveCount(0);
  await expect(page.getByTestId('scan-result')).toHaveCount(0);
  await page.screenshot({ path: `${screenshotDir}/setup-scanner-check-en-1024x768.png` });
  expect(await fitsFromTheTop(page)).toEqual([]);

  // Caps Lock on: said, and it changes nothing.
  await keyboard.chord(['CapsLock']);
  await keyboard.type(SCANNER_CHECK_TEXT, usKeys, scannerPace);
  await keyboard.chord(['CapsLock']);
  await expect(page.getByTestId('scanner-verdict-caps')).toHaveText('Caps Lock is on: that changes nothing for scans.');
  await expect(page.getByTestId('scanner-verdict-outcome')).toHaveText('Scans will be read correctly.');

  // Printed on the bench's Zebra: the label's barcode holds the same text.
  const before = zebra.printed().length;
  await page.getByTestId('scanner-check-print').click();
  await expect(page.getByTestId('scanner-check-printed')).toContainText('Bench Zebra');
  await zebra.waitForLabels(before + 1);
  expect(await decodeBarcodesFromPng(await zebra.renderPng(before))).toContainEqual({ symbology: 'CODE-128', data: SCANNER_CHECK_TEXT });
});

test('a scanner set to French on a German PC is told apart, fixed with one press, remembered, and its scans then print', async ({ page, webHost, zebra, keyboard, sandboxOrders }) => {
  const sent = scansSentBy(page);
  await openStation(page, webHost);
  await addVirtualZebra(page, zebra);
  await page.keyboard.press('F4');
  await page.getByTestId('setting-language').selectOption('de');
  await keyboard.setLayout('de');
  await focusPage(page, keyboard);

  // Before anything is set: such a scanner's order refs would be misread.
  const order = draftOrder(sandboxOrders, 40);
  await keyboard.type(SCANNER_CHECK_TEXT, frenchKeys, scannerPace);
  await expect(page.getByTestId('scanner-verdict')).toHaveAttribute('data-reads', 'wrongly');
  await expect(page.getByTestId('scanner-verdict-scanner')).toHaveText('Der Scanner funktioniert. Er tippt wie eine Tastatur mit dem Layout „Französisch“.');
  await expect(page.getByTestId('scanner-verdict-pc')).toHaveText('Dieser PC verwendet das Tastaturlayout „Deutsch“.');
  await expect(page.getByTestId('scanner-verdict-outcome')).toHaveText('Scans würden falsch gelesen: Wählen Sie „Französisch“ als Layout des Scanners.');
  await page.screenshot({ path: `${screenshotDir}/setup-scanner-check-de-1024x768.png` });
  expect(await fitsFromTheTop(page)).toEqual([]);

  await page.getByTestId('scanner-use-layout').click();
  await expect(page.getByTestId('setting-scanner-layout')).toHaveValue('fr');
  await expect(page.getByTestId('scanner-verdict-outcome')).toHaveText('Scans werden richtig gelesen.');

  // The bench remembers it: a new page of the station reads the scanner as French.
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-scan-ready', 'true');
  await page.keyboard.press('F4');
  await expect(page.getByTestId('setting-scanner-layout')).toHaveValue('fr');
  await page.keyboard.press('F1');
  await focusPage(page, keyboard);
  await keyboard.type(order.orderRef!, frenchKeys, scannerPace);
  await expect(page.getByTestId('result-order')).toHaveText(order.orderRef!, { timeout: 20_000 });
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'printed');
  expect(sent).toEqual([order.orderRef]);
  expect((await zebra.waitForLabels(1)).at(-1)?.zpl).toContain(order.barcode);
});

test('a scanner in Alt + keypad mode is read the same on any layout, and the check says so', async ({ page, webHost, keyboard }) => {
  await openStation(page, webHost);
  await page.keyboard.press('F4');
  await keyboard.setLayout('be');
  await focusPage(page, keyboard);
  await keyboard.typeAltCodes(SCANNER_CHECK_TEXT, scannerPace, true);
  await expect(page.getByTestId('scanner-verdict')).toHaveAttribute('data-reads', 'correctly');
  await expect(page.getByTestId('scanner-verdict-scanner')).toHaveText(
    'The scanner works. It types every character as an Alt code (Alt + keypad), which reads the same on every keyboard layout.',
  );
  await expect(page.getByTestId('scanner-verdict-outcome')).toHaveText('Scans will be read correctly.');
});
