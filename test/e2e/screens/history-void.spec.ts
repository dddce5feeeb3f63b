/**
 * A lead cancels an order from History far down a day's list, at 1024×768 and 1280×800: the State
 * column is in view beside the order, the confirmation appears under the row the lead is looking
 * at (not at the top of the page), and the voided row no longer offers Reprint.
 */
import { addVirtualZebra, expect, printBiggestBundles, test } from './bench-fixture';
import { openStation, scanLikeAScanner } from './station-page';

for (const size of [
  { width: 1024, height: 768 },
  { width: 1280, height: 800 },
]) {
  test(`at ${size.width}×${size.height} a void in History is confirmed under its row, its State is in view, and it offers no Reprint`, async ({ page, webHost, zebra, sandboxOrders }) => {
    test.setTimeout(90_000);
    await page.setViewportSize(size);
    await openStation(page, webHost);
    await scanLikeAScanner(page, 'STATION:OPERATOR:Anna');
    await expect(page.getByTestId('operator-badge-name')).toHaveText('Anna');
    // Today's three biggest bundles, on the bench's fast Zebra: a day's worth of History rows.
    await addVirtualZebra(page, zebra);
    await printBiggestBundles(page, sandboxOrders, 3);

    await page.keyboard.press('F5');
    const rows = page.getByTestId('history-table').locator('tbody tr.history-row');
    await expect(rows.nth(15)).toBeVisible({ timeout: 20_000 });
    // The oldest label, at the foot of the list.
    const row = rows.last();
    await row.scrollIntoViewIfNeeded();
    await row.click();
    const orderRef = ((await row.locator('td').nth(1).textContent()) ?? '').trim();
    expect(orderRef).not.toBe('');
    const state = row.locator('[data-testid^="history-state-"]');
    await expect(state).toHaveText(/Sent|Printed/);
    await expect(state).toBeInViewport({ ratio: 1 });

    const actions = page.getByTestId('history-actions');
    await actions.getByRole('button', { name: 'Cancel order' }).click();
    await page.getByTestId('void-reason').fill('customer called');
    await page.getByTestId('void-submit').click();
    const confirmation = actions.locator('[data-testid^="history-voided-"]');
    await expect(confirmation).toHaveText(`${orderRef} is cancelled — keep it off the pallet.`, { timeout: 30_000 });
    await expect(confirmation).toBeInViewport({ ratio: 1 });
    await expect(state).toContainText('Voided');
    await expect(state).toBeInViewport({ ratio: 1 });
    // Voided: nothing to reprint, and no button that says otherwise.
    await expect(actions.getByRole('button', { name: 'Reprint' })).toHaveCount(0);
  });
}
