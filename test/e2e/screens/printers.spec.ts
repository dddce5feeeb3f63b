import { expect, test, virtualPrinterName } from './bench-fixture';
import { openStation, screenshotDir, smallTargets } from './station-page';

test('printers: the sandbox’s virtual Zebra is listed with its state; a USB Zebra is picked from the devices found', async ({ page, webHost }) => {
  await openStation(page, webHost);
  await page.keyboard.press('F3');
  await expect(page.getByTestId('printer-list')).toContainText(virtualPrinterName);

  await page.getByTestId('printer-kind-usb-zebra').check();
  const picker = page.getByTestId('usb-picker');
  // This machine has no Zebra on USB: the picker says so and still offers the first one found later, or a typed serial number.
  await expect(page.getByTestId('usb-found')).toHaveText(/No Zebra found on USB|Zebras? found on USB/, { timeout: 20_000 });
  const device = page.getByTestId('printer-usb-device');
  await expect(device.locator('option').first()).toHaveText('The first Zebra found on USB');
  await device.selectOption({ label: 'Type a serial number…' });
  await expect(page.getByTestId('printer-usb-serial')).toBeVisible();
  await page.getByTestId('printer-usb-refresh').click();
  await expect(page.getByTestId('usb-found')).toHaveText(/found on USB/);
  expect(await smallTargets(page)).toEqual([]);
  expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
  expect(await page.evaluate("document.getElementById('main').scrollWidth <= document.getElementById('main').clientWidth")).toBe(true);
  await picker.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${screenshotDir}/printers-usb-1280x800.png` });
});
