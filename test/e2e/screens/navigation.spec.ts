import { expect, test } from '../web-host-fixture';
import { openStation, screenshotDir, smallTargets } from './station-page';

const screens = [
  { key: 'F1', alt: '1', id: 'scan', heading: 'Ready to scan' },
  { key: 'F2', alt: '2', id: 'shift', heading: 'Shift start' },
  { key: 'F3', alt: '3', id: 'printers', heading: 'Printers' },
  { key: 'F4', alt: '4', id: 'setup', heading: 'Setup' },
  { key: 'F5', alt: '5', id: 'history', heading: 'History' },
  // No F-key is free for the lead's Floor: Alt+6 is its key.
  { key: 'Alt+6', alt: '6', id: 'floor', heading: 'Floor' },
] as const;

test('every screen opens from the keyboard alone, and its heading takes the focus', async ({ page, webHost }) => {
  await openStation(page, webHost);
  for (const screen of [...screens].reverse()) {
    await page.keyboard.press(screen.key);
    await expect(page.getByTestId(`nav-${screen.id}`)).toHaveAttribute('aria-current', 'page');
    if (screen.id === 'scan') await expect(page.getByTestId('scan-result')).toContainText(screen.heading);
    else await expect(page.getByRole('heading', { level: 1, name: screen.heading })).toBeFocused();
  }
  for (const screen of screens) {
    await page.keyboard.press(`Alt+${screen.alt}`);
    await expect(page.getByTestId(`nav-${screen.id}`)).toHaveAttribute('aria-current', 'page');
  }
  // Esc always comes home to Scan.
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('nav-scan')).toHaveAttribute('aria-current', 'page');
});

test('each screen at 1280×800: SANDBOX badge, printer status, large targets, nothing cut off; screenshots', async ({ page, webHost }) => {
  await openStation(page, webHost);
  await expect(page.getByTestId('environment')).toHaveText('SANDBOX');
  await expect(page.getByTestId('environment-badge')).toContainText('nothing ships');
  await expect(page.getByTestId('first-run')).toContainText('This is the sandbox');
  for (const screen of screens) {
    await page.keyboard.press(screen.key);
    await expect(page.getByTestId(`nav-${screen.id}`)).toHaveAttribute('aria-current', 'page');
    await expect(page.getByTestId('printer-status')).toBeVisible();
    await expect(page.getByTestId('environment')).toBeVisible();
    if (screen.id !== 'scan') await expect(page.getByRole('heading', { level: 1, name: screen.heading })).toBeVisible();
    expect(await smallTargets(page), `controls under 48 px on ${screen.id}`).toEqual([]);
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth'), `${screen.id} fits the width`).toBe(true);
    await page.screenshot({ path: `${screenshotDir}/${screen.id}-1280x800.png` });
  }
});

test('the scan screen works at 1920×1080 too', async ({ page, webHost }) => {
  await page.setViewportSize({ width: 1920, height: 1080 });
  await openStation(page, webHost);
  await expect(page.getByTestId('scan-result')).toContainText('Ready to scan');
  expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
  expect(await page.evaluate('document.documentElement.scrollHeight <= window.innerHeight')).toBe(true);
  // The headline is legible from a metre away: at least 60 px tall.
  const fontSize = Number(await page.evaluate("parseFloat(getComputedStyle(document.querySelector('.result-title')).fontSize)"));
  expect(fontSize).toBeGreaterThanOrEqual(60);
  await page.screenshot({ path: `${screenshotDir}/scan-1920x1080.png` });
});
