/**
 * A lead presses a "Choose a file" button on Shift start, Setup and Printers at 1024×768: the
 * browser's file chooser opens and the screen stays where it was. The hidden file input used to
 * sit outside the scrolling area, so focusing it scrolled the page by hundreds of pixels and left
 * only the footer in view.
 */
import { expect, test } from './bench-fixture';
import { openStation } from './station-page';

const choices = [
  // Each with what shows once the screen has loaded, so nothing moves the button but the click.
  { key: 'F2', screen: 'Shift start', button: 'Choose the spreadsheet', loaded: 'bundle-choices' },
  { key: 'F4', screen: 'Setup', button: 'Choose a CSV or Excel file', loaded: 'import-section' },
  { key: 'F3', screen: 'Printers', button: 'Choose a ZPL or PDF file', loaded: 'printer-list' },
] as const;

test.use({ viewport: { width: 1024, height: 768 } });

for (const choice of choices) {
  test(`${choice.screen}: "${choice.button}" opens the file chooser without moving the screen`, async ({ page, webHost }) => {
    await openStation(page, webHost);
    await page.keyboard.press(choice.key);
    await expect(page.getByTestId(choice.loaded)).toBeVisible();
    const button = page.locator('label.file-button', { hasText: choice.button });
    await button.scrollIntoViewIfNeeded();
    await expect(button).toBeInViewport({ ratio: 1 });
    const mainScroll = () => page.evaluate("document.getElementById('main').scrollTop");
    const before = await mainScroll();

    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), button.click()]);
    expect(chooser).toBeTruthy();

    // The button the lead pressed is wholly in view, and neither the screen's area nor the page scrolled.
    await expect(button).toBeInViewport({ ratio: 1 });
    expect(await mainScroll()).toBe(before);
    expect(await page.evaluate('window.scrollY')).toBe(0);
    await expect(page.getByTestId('printer-status')).toBeInViewport();
  });
}
