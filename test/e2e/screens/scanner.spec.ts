import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { draftOrder, expect, test } from './bench-fixture';
import { openStation, scanLikeAScanner, screenshotDir } from './station-page';

/**
 * A keyboard-wedge scanner at a real bench (issue 15): the GS1 group separator in each form
 * scanners send it, Caps Lock, scans longer than the limit, slow typing, and a scan while a
 * dialog is open. Typed with scanner timing (a few ms per key) through Debian's Chromium.
 */

const english = JSON.parse(readFileSync(join(process.cwd(), 'src/renderer/src/i18n/en.json'), 'utf8')) as { scan: { rejected: Record<string, string> } };

/** The three ways a wedge types GS: Ctrl+], Alt+029 on the numpad, or the character itself. */
const groupSeparatorForms: Record<string, (page: Page) => Promise<void>> = {
  'Ctrl+]': async (page) => page.keyboard.press('Control+BracketRight'),
  'Alt+029': async (page) => {
    await page.keyboard.down('Alt');
    for (const digit of '029') await page.keyboard.press(`Numpad${digit}`);
    await page.keyboard.up('Alt');
  },
  // A key event carrying the character (some wedges and RDP clients send it so); Playwright has no key for it.
  'the character': async (page) => {
    await page.evaluate("document.activeElement.dispatchEvent(new KeyboardEvent('keydown', { key: '\\u001d', bubbles: true, cancelable: true }))");
  },
};

for (const [form, typeGroupSeparator] of Object.entries(groupSeparatorForms)) {
  test(`GS sent as ${form} neither loses a scan (at the end) nor splits it (in the middle)`, async ({ page, webHost, sandboxOrders }) => {
    await openStation(page, webHost);
    const order = draftOrder(sandboxOrders);

    // At the end: the scan is the order's, and it prints.
    await page.keyboard.type(order.orderRef, { delay: 5 });
    await typeGroupSeparator(page);
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'printed', { timeout: 20_000 });
    await expect(page.getByTestId('result-order')).toHaveText(order.orderRef);

    // In the middle: one scan with the separator inside it, looked up once as a whole.
    await page.keyboard.type('0108712345678906', { delay: 5 });
    await typeGroupSeparator(page);
    await page.keyboard.type('10ABC123', { delay: 5 });
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'failed', { timeout: 20_000 });
    expect(await page.getByTestId('result-scan').getAttribute('title')).toBe('0108712345678906\u001d10ABC123');
  });
}

test('a Caps Lock scan finds the order when the exact text matches nothing', async ({ page, webHost, sandboxOrders }) => {
  await openStation(page, webHost);
  const order = draftOrder(sandboxOrders);
  await scanLikeAScanner(page, order.orderRef.toLowerCase());
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'printed', { timeout: 20_000 });
  await expect(page.getByTestId('result-order')).toHaveText(order.orderRef);
});

test('a scan longer than 2,048 characters is refused whole, with the reason, and no part of it is looked up', async ({ page, webHost }) => {
  await openStation(page, webHost);
  const scan = `HEAD-${'0123456789'.repeat(210)}-TAIL`;
  await scanLikeAScanner(page, scan);
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'failed', { timeout: 20_000 });
  await expect(page.getByTestId('result-error-action')).toHaveText(english.scan.rejected['too-long']!);
  // The panel shows the scan from its start: the tail was never taken for a scan of its own.
  expect(await page.getByTestId('result-scan').getAttribute('title')).toMatch(/^HEAD-0123456789/);
  await page.screenshot({ path: `${screenshotDir}/scanner-over-long-1280x800.png` });
});

test('a fast scanner’s "reading…" cue is drawn once, not again for each of its keys, and its scan prints', async ({ page, webHost, sandboxOrders }) => {
  await openStation(page, webHost);
  // Every text the cue shows, in order, as the page draws it (a script: these tests are typed without the DOM's types).
  await page.evaluate(`(() => {
    const seen = [];
    window.cueTexts = seen;
    new MutationObserver(() => {
      const text = document.querySelector('[data-testid="scan-cue"]')?.textContent ?? '';
      if (text !== '' && seen.at(-1) !== text) seen.push(text);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  })()`);
  const order = draftOrder(sandboxOrders);
  // Its keys 5 ms apart (their own times): the whole ref takes well under the cue's 100 ms redraw.
  expect(order.orderRef.length).toBeLessThan(20);
  await scanLikeAScanner(page, order.orderRef);
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'printed', { timeout: 20_000 });
  await expect(page.getByTestId('result-order')).toHaveText(order.orderRef);
  const texts = await page.evaluate(() => (globalThis as unknown as { cueTexts: string[] }).cueTexts);
  // Drawn at its second key, when a scan is first told from typing.
  expect(texts.map((text) => text.trim())).toEqual(['Reading… 2 characters']);
});

test('a scanner typing is seen at once ("reading…"), and slow typing says to use the entry field', async ({ page, webHost }) => {
  await openStation(page, webHost);
  // A slow wireless scanner, well inside the bench's 120 ms: the cue shows while it types.
  const typing = page.keyboard.type('NW-SLOW-SCANNER-0001', { delay: 60 });
  await expect(page.getByTestId('scan-cue')).toHaveAttribute('data-cue', 'reading');
  await expect(page.getByTestId('scan-cue')).toContainText('Reading…');
  await page.screenshot({ path: `${screenshotDir}/scanner-reading-cue-1280x800.png` });
  // Its count grows as it types.
  await expect(page.getByTestId('scan-cue')).toContainText(/Reading… ([5-9]|1\d|20) characters/);
  await typing;
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'failed', { timeout: 20_000 });
  await expect(page.getByTestId('scan-cue')).toHaveCount(0);

  // A person typing a ref outside any field, then Enter: no scan, but they are told why.
  await page.keyboard.press('Escape');
  await page.keyboard.type('ORD-1001', { delay: 250 });
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('scan-cue')).toHaveAttribute('data-cue', 'too-slow');
  await expect(page.getByTestId('scan-cue')).toContainText('entry field');
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'idle');
});

test('a scan while the preview is open closes it and shows its result', async ({ page, webHost, sandboxOrders }) => {
  await openStation(page, webHost);
  const first = draftOrder(sandboxOrders, 0);
  const second = draftOrder(sandboxOrders, 1);
  await scanLikeAScanner(page, first.orderRef);
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'printed', { timeout: 20_000 });
  await page.keyboard.press('Shift+F6');
  await expect(page.getByTestId('preview-dialog')).toBeVisible();

  await scanLikeAScanner(page, second.orderRef);
  await expect(page.getByTestId('preview-dialog')).toHaveCount(0);
  await expect(page.getByTestId('result-order')).toHaveText(second.orderRef, { timeout: 20_000 });
  await expect(page.getByTestId('scan-result')).toBeInViewport();
});

test('a scan while a dialog holds typed input leaves the dialog alone, and its result shows once the dialog is closed', async ({ page, webHost, sandboxOrders }) => {
  await openStation(page, webHost);
  const first = draftOrder(sandboxOrders, 0);
  const second = draftOrder(sandboxOrders, 1);
  await scanLikeAScanner(page, first.orderRef);
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'printed', { timeout: 20_000 });
  // A reprint with nobody signed in asks for the name in a dialog; someone starts typing it.
  await page.getByTestId('operator-later').click();
  await page.keyboard.press('F6');
  await page.keyboard.press('1');
  const name = page.getByTestId('operator-name');
  await expect(name).toBeFocused();
  await name.pressSequentially('Anna', { delay: 30 });
  await page.getByTestId('operator-dialog-cancel').focus();

  await scanLikeAScanner(page, second.orderRef);
  // The printer works behind the dialog; the half-typed name is kept.
  await expect(page.getByTestId('result-order')).toHaveText(second.orderRef, { timeout: 20_000 });
  await expect(page.getByTestId('operator-name')).toHaveValue('Anna');
  await page.getByTestId('operator-dialog-cancel').click();
  await expect(page.getByTestId('operator-name')).toHaveCount(0);
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'printed');
  await expect(page.getByTestId('result-order')).toHaveText(second.orderRef);
});
