/**
 * Shift start's list of today's bundles at 1024×768 (issue 39, item 12): each bundle's first order
 * refs are read whole — in English, Dutch and Polish — not cut to "N…" beside the print card.
 */
import { expect, test } from './bench-fixture';
import { chooseLanguageBeforeStart } from './layout-support';
import { openStation } from './station-page';

test.use({ viewport: { width: 1024, height: 768 } });

const parcelsToPrint = { en: /\d+ parcels to print/, nl: /\d+ pakketten te printen/, pl: /\d+ paczek do druku/ } as const;

for (const language of ['en', 'nl', 'pl'] as const) {
  test(`in "${language}" every bundle's order refs are whole at 1024×768`, async ({ page, webHost, sandboxOrders }) => {
    await chooseLanguageBeforeStart(page, language);
    await openStation(page, webHost);
    await page.keyboard.press('F2');
    const refs = page.locator('.bundle-refs');
    await expect(refs.first()).toBeVisible({ timeout: 20_000 });
    const shown = await refs.evaluateAll((elements) =>
      elements.map((element) => ({ text: element.textContent ?? '', cut: element.scrollWidth > element.clientWidth + 1 || element.scrollHeight > element.clientHeight + 1, width: element.clientWidth })),
    );
    expect(shown.length).toBeGreaterThan(10);
    expect(shown.filter((each) => each.cut)).toEqual([]);
    // What is there to read: whole refs of today's orders.
    const known = new Set(sandboxOrders.map((order) => order.orderRef));
    for (const each of shown) {
      const first = each.text.split(',')[0]!.trim().split(' ')[0]!;
      expect(known.has(first), `${first} in "${each.text}"`).toBe(true);
    }
    await refs.first().scrollIntoViewIfNeeded();
    await expect(refs.first()).toBeInViewport({ ratio: 1 });
    // Parcels counted with the one word each language has for them (Polish: paczki, never przesyłki).
    await expect(page.getByTestId('bundles-to-print')).toContainText(parcelsToPrint[language]);
  });
}
