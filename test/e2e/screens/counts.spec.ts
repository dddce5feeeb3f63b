import { terminalStatuses } from '../../../src/shared/api/schemas';
import { expect, test } from './bench-fixture';
import { openStation } from './station-page';

/**
 * Shift start's counts (issue 15): cancelled and finished parcels are shown apart from the ones
 * to print (the bench saw 98 "to print" where 94 printed and 13 were left out), with plurals right.
 */
test("shift start counts the parcels to print without the cancelled and finished ones, and shows those apart", async ({ page, webHost, sandboxOrders }) => {
  const isTerminal = (status: string) => (terminalStatuses as readonly string[]).includes(status);
  const byBundle = new Map<string, string[]>();
  for (const order of sandboxOrders) byBundle.set(order.bundleId, [...(byBundle.get(order.bundleId) ?? []), order.status]);
  // A fresh station has printed nothing: a bundle is listed while any of its parcels can still print.
  const listed = [...byBundle.values()].filter((statuses) => statuses.some((status) => !isTerminal(status)));
  const toPrint = listed.flat().filter((status) => !isTerminal(status)).length;
  const leftOut = listed.flat().filter(isTerminal).length;
  expect(leftOut).toBeGreaterThan(0);

  await openStation(page, webHost);
  await page.keyboard.press('F2');
  await expect(page.getByTestId('bundles-to-print')).toHaveText(`${listed.length} bundles, ${toPrint} parcels to print`);
  await expect(page.getByTestId('bundles-left-out')).toHaveText(`· ${leftOut} cancelled or finished parcel${leftOut === 1 ? '' : 's'} left out`);

  // Choosing them all offers exactly the parcels to print.
  await page.getByTestId('bundles-select-all').click();
  await expect(page.getByTestId('bundles-count')).toContainText(`· ${toPrint} parcels`);
});
