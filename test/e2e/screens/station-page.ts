import { expect, type Page } from '@playwright/test';
import type { WebHostProcess } from '../web-host-fixture';

/** Where the screenshots go (test-results is not committed). */
export const screenshotDir = 'test-results/screens';

/** Opens the station with the host's launch link and waits until it captures scans. */
export async function openStation(page: Page, webHost: WebHostProcess): Promise<void> {
  await page.goto(webHost.launchUrl);
  await expect(page.locator('html')).toHaveAttribute('data-scan-ready', 'true');
  await expect(page.getByTestId('app-info')).toBeVisible();
}

/** Types like a keyboard-wedge scanner: a few ms between keys, then its Enter suffix. */
export async function scanLikeAScanner(page: Page, text: string, suffix: 'Enter' | 'Tab' = 'Enter'): Promise<void> {
  await page.keyboard.type(text, { delay: 5 });
  await page.keyboard.press(suffix);
}

/** Collects Content Security Policy violations the page reports, to assert there were none. */
export function watchCsp(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  page.on('pageerror', (error) => {
    if (/Content Security Policy|Refused to/i.test(error.message)) violations.push(error.message);
  });
  return violations;
}

/** Every control on screen that a gloved finger must hit, with its size. */
export async function smallTargets(page: Page): Promise<string[]> {
  const controls = page.locator('button:visible, a[href]:visible, select:visible, input:visible:not(.visually-hidden), label.button:visible');
  const small: string[] = [];
  for (const control of await controls.all()) {
    // A checkbox or radio button is hit through its whole label.
    const type = await control.getAttribute('type');
    const target = type === 'checkbox' || type === 'radio' ? control.locator('xpath=ancestor::label[1]') : control;
    const box = await target.boundingBox();
    if (!box) continue;
    if (box.height < 48 || box.width < 48) small.push(`${(await control.textContent())?.trim() || (await control.getAttribute('data-testid'))} ${Math.round(box.width)}×${Math.round(box.height)}`);
  }
  return small;
}
