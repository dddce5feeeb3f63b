/**
 * English left in other languages, and the browser's own words where the station's belong (issue
 * 39, items 18 and 21), in English and Dutch at 1024×768: a bench nobody named is named in the
 * screen's language, in the top bar and on the Floor; a TEST address the station cannot use is refused in the station's words, not
 * the browser's "Please enter a URL."; History's day is written as the language writes a date,
 * never mm/dd/yyyy, one stop of the Tab key with the focus ring; the Scan and History screens
 * use the language's one word for a label; and TEST with its address but no key asks for the key
 * only. (Every text's one word per thing: test/unit/renderer/i18n.test.ts.)
 */
import { expect, test } from './bench-fixture';
import { chooseLanguageBeforeStart } from './layout-support';
import { openStation } from './station-page';

test.use({ viewport: { width: 1024, height: 768 } });

const words = {
  en: {
    bench: 'Packing bench',
    badAddress: 'The TEST address is not one the station can use: type the whole address the delivery service gave you, starting with https://',
    saved: 'Saved',
    everyDay: 'Every day',
    // "Tue, 12 May 2026": the screen's English is British.
    day: /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sept?|Oct|Nov|Dec) \d{4}$/,
    keyOnly: 'TEST is not set up: no API key. The bench cannot print a label in TEST until its API key is entered below (its delivery service address is set).',
    both: 'address and API key',
    // One word for a label in each language: no Dutch "etiket" left in the English.
    otherWord: /\betiket(ten)?\b/i,
  },
  nl: {
    bench: 'Inpaktafel',
    badAddress: 'Met dit TEST-adres kan het station niet werken: typ het hele adres dat de bezorgdienst je gaf, beginnend met https://',
    saved: 'Opgeslagen',
    everyDay: 'Alle dagen',
    day: /^(ma|di|wo|do|vr|za|zo) \d{1,2} (jan|feb|mrt|apr|mei|jun|jul|aug|sep|okt|nov|dec) \d{4}$/,
    keyOnly: 'TEST is niet ingesteld: geen API-sleutel. De werkplek kan in TEST geen etiket afdrukken tot de API-sleutel hieronder is ingevuld (het adres van de bezorgdienst is er al).',
    both: 'adres van de bezorgdienst en de API-sleutel',
    // A label is an etiket on every Dutch screen, never "label".
    otherWord: /\blabels?\b/i,
  },
} as const;

for (const language of ['en', 'nl'] as const) {
  test(`in "${language}": the bench's default name, the address check, History's day and TEST without a key speak the screen's language`, async ({ page, webHost }) => {
    test.setTimeout(90_000);
    const say = words[language];
    await chooseLanguageBeforeStart(page, language);
    await openStation(page, webHost);
    await expect(page.getByTestId('topbar-station')).toHaveText(say.bench);
    await expect(page.getByTestId('station-name')).toHaveText(say.bench);
    // The Floor (Alt+6) names this bench as the top bar does.
    await page.keyboard.press('Alt+6');
    await expect(page.getByTestId('floor-bench').locator('h2')).toContainText(say.bench, { timeout: 20_000 });
    await page.keyboard.press('F1');

    // A label, so History has a day to offer.
    const sample = page.getByTestId('sample-order').first();
    await expect(sample).toBeVisible({ timeout: 20_000 });
    await sample.click();
    await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'printed', { timeout: 20_000 });
    expect(await page.locator('main').innerText()).not.toMatch(say.otherWord);
    await page.keyboard.press('F5');
    const day = page.getByTestId('history-day');
    await expect(page.locator('.history-row').first()).toBeVisible({ timeout: 20_000 });
    await expect(day.locator('option')).toHaveText([say.everyDay, say.day]);
    await day.selectOption({ index: 1 });
    await expect(page.locator('.history-row')).toHaveCount(1);
    // One stop of the Tab key, with the station's focus ring, and the next stop is the next control.
    await page.getByTestId('history-search').focus();
    await page.keyboard.press('Tab');
    await expect(day).toBeFocused();
    await expect(day).toHaveCSS('outline-style', 'solid');
    await expect(day).toHaveCSS('outline-width', '4px');
    await page.keyboard.press('Tab');
    await expect(page.getByTestId('history-pull-filter')).toBeFocused();
    await expect(page.getByTestId('history-search').locator('xpath=ancestor::form[1]')).not.toContainText(/mm\/dd\/yyyy|dd\/mm\/yyyy/i);
    expect(await page.locator('main').innerText()).not.toMatch(say.otherWord);

    // Setup: an address without https:// is refused in the station's words.
    await page.keyboard.press('F4');
    const address = page.getByTestId('setting-base-url-test');
    await address.fill('test.delivery.example/v1');
    await address.press('Enter');
    await expect(page.getByTestId('base-url-invalid-test')).toContainText(say.badAddress);
    await expect(address).toBeFocused();
    await expect(address).toHaveAttribute('aria-invalid', 'true');
    expect(await address.evaluate((field) => (field as unknown as { validationMessage: string }).validationMessage)).toBe('');
    await address.fill('https://test.delivery.example/v1');
    await address.press('Enter');
    await expect(page.getByTestId('base-urls-saved')).toContainText(say.saved);
    await expect(page.getByTestId('base-url-invalid-test')).toHaveCount(0);

    // TEST has its address now, not its key: the question names the key alone.
    await page.getByTestId('environment-test').click();
    const missing = page.getByTestId('environment-missing');
    await expect(missing).toContainText(say.keyOnly);
    await expect(missing).not.toContainText(say.both);
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('environment-sandbox')).toBeChecked();
  });
}
