/**
 * "Find printers" practised on the sandbox (issue 39, item 20), in English and Dutch at 1024×768:
 * the sandbox's virtual Zebra answers Zebra's network discovery (on loopback, a port of its own), so
 * a plain search lists it — with its model, resolution and address, known as the bench's printer
 * already; and a search that finds nothing says so, print queues included.
 */
import { expect, test } from './bench-fixture';
import { chooseLanguageBeforeStart } from './layout-support';
import { openStation } from './station-page';

test.use({ viewport: { width: 1024, height: 768 } });

const words = {
  en: { known: 'Already added', kind: 'Network Zebra', nothing: 'answered on 127.0.0.2/32', queues: 'print queues' },
  nl: { known: 'Al toegevoegd', kind: 'Netwerk-Zebra', nothing: 'antwoordde op 127.0.0.2/32', queues: 'printwachtrijen' },
} as const;

for (const language of ['en', 'nl'] as const) {
  test(`in "${language}": the sandbox's virtual Zebra answers "Find printers", and finding nothing mentions the print queues`, async ({ page, webHost }) => {
    const say = words[language];
    await chooseLanguageBeforeStart(page, language);
    await openStation(page, webHost);
    await page.keyboard.press('F3');
    const search = page.getByTestId('discover-search');
    await search.click();
    const row = page.getByTestId('discover-row').filter({ hasText: 'Virtual Zebra' });
    await expect(row).toHaveCount(1, { timeout: 20_000 });
    await expect(row).toContainText(say.kind);
    await expect(row).toContainText('203 dpi');
    await expect(row).toContainText(/127\.0\.0\.1:\d+/);
    // It is the bench's printer already: the sandbox registered it.
    await expect(row).toContainText(say.known);
    await expect(page.getByTestId('discover-count')).toContainText('127.0.0.1/32');

    // A network where nothing answers: said so, and what of the print queues.
    await page.getByTestId('discover-subnet').fill('127.0.0.2/32');
    await search.click();
    const count = page.getByTestId('discover-count');
    await expect(count).toContainText(say.nothing, { timeout: 20_000 });
    await expect(count).toContainText(say.queues);
    await expect(page.getByTestId('discover-row').filter({ hasText: 'Virtual Zebra' })).toHaveCount(0);
  });
}
