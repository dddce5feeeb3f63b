import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type CDPSession, type Page } from '@playwright/test';
import type { WebHostProcess } from '../web-host-fixture';

/** Where the screenshots go (test-results is not committed). */
export const screenshotDir = 'test-results/screens';

/**
 * The scanner timing the bench tests set (Setup → "Longest pause between a scanner's keys"), as a
 * bench with a slow wireless scanner would. Playwright types a few ms apart, but on a loaded
 * 2-core CI machine the test runner itself now and then stalls for more than the default 50 ms
 * between two keys. The tests of scan detection itself keep the default.
 */
export const benchScannerGapMs = 120;

/** Where the screen keeps its preferences in the page's storage. */
const preferencesStorageKey = 'station.preferences.v1';

/**
 * Opens the station with the host's launch link and waits until it captures scans. The scanner
 * timing is set in the page's preferences before the page starts (and kept over reloads).
 */
export async function openStation(page: Page, webHost: WebHostProcess, options: { scannerGapMs?: number | 'default' } = {}): Promise<void> {
  const gap = options.scannerGapMs ?? benchScannerGapMs;
  if (gap !== 'default') {
    // The screen's preferences (src/renderer/src/state/preferences.ts), merged so a chosen language stays.
    await page.addInitScript({
      content: `(() => {
        const key = ${JSON.stringify(preferencesStorageKey)};
        let stored = {};
        try { stored = JSON.parse(localStorage.getItem(key) || '{}') || {}; } catch { stored = {}; }
        localStorage.setItem(key, JSON.stringify({ ...stored, scanGapMs: ${gap} }));
      })();`,
    });
  }
  await page.goto(webHost.launchUrl);
  await expect(page.locator('html')).toHaveAttribute('data-scan-ready', 'true');
  await expect(page.getByTestId('app-info')).toBeVisible();
}

/** How far apart a wedge scanner's keys are. */
const scannerKeyGapMs = 5;
const devtoolsSessions = new WeakMap<Page, Promise<CDPSession>>();

/** The Windows key code of a character a scanner types (letters, digits and the usual signs). */
function virtualKeyCode(character: string): number {
  if (/^[A-Za-z0-9]$/.test(character)) return character.toUpperCase().charCodeAt(0);
  return ({ '-': 189, '.': 190, '/': 191, ':': 186, ';': 186, '+': 187, '=': 187, ' ': 32 } as Record<string, number>)[character] ?? 0;
}

/**
 * Types like a keyboard-wedge scanner: its keys 5 ms apart, then its Enter (or Tab) suffix. The
 * keys carry the times the scanner sent them (the page's scan detection reads
 * `KeyboardEvent.timeStamp`), as the operating system stamps a real scanner's keys: a test machine
 * busy with other tests may hand them over late, but never makes them a person's slow typing.
 */
export async function scanLikeAScanner(page: Page, text: string, suffix: 'Enter' | 'Tab' = 'Enter'): Promise<void> {
  let session = devtoolsSessions.get(page);
  if (!session) {
    session = page.context().newCDPSession(page);
    devtoolsSessions.set(page, session);
  }
  const devtools = await session;
  // In seconds since the epoch, after the page's time origin (an earlier stamp reads as 0).
  let at = await page.evaluate(() => (performance.timeOrigin + performance.now()) / 1000);
  // Sent one after the other without waiting for each (the browser keeps their order), as a
  // scanner does not wait for the page either.
  const sent: Promise<unknown>[] = [];
  const key = (event: { key: string; code?: string; text?: string; windowsVirtualKeyCode: number }) => {
    sent.push(devtools.send('Input.dispatchKeyEvent', { ...event, type: event.text ? 'keyDown' : 'rawKeyDown', unmodifiedText: event.text, timestamp: at }));
    sent.push(devtools.send('Input.dispatchKeyEvent', { key: event.key, code: event.code, windowsVirtualKeyCode: event.windowsVirtualKeyCode, type: 'keyUp', timestamp: at + 0.001 }));
    at += scannerKeyGapMs / 1000;
  };
  for (const character of text) key({ key: character, text: character, windowsVirtualKeyCode: virtualKeyCode(character) });
  key(suffix === 'Enter' ? { key: 'Enter', code: 'Enter', text: '\r', windowsVirtualKeyCode: 13 } : { key: 'Tab', code: 'Tab', windowsVirtualKeyCode: 9 });
  await Promise.all(sent);
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

/**
 * A file of `megabytes` MB on this machine's disk (under test-results, not committed), as a lead's
 * file picker hands it over. Chromium reads a chosen file from disk; a buffer would be copied
 * through the test's browser connection (tens of MB, each time it is chosen).
 */
export function bigFileOnDisk(name: string, megabytes: number): string {
  mkdirSync('test-results', { recursive: true });
  const path = join(mkdtempSync(join('test-results', 'file-')), name);
  writeFileSync(path, Buffer.alloc(megabytes * 1024 * 1024, 0x41));
  return path;
}

/** Imports a manifest as a lead does: Setup (F4) › Import today's manifest, then waits for its report. */
export async function importManifestOnSetup(page: Page, file: { name: string; text: string }): Promise<void> {
  await page.keyboard.press('F4');
  await page.getByTestId('import-file').setInputFiles({ name: file.name, mimeType: 'text/csv', buffer: Buffer.from(file.text) });
  await expect(page.getByTestId('import-report')).toContainText(file.name, { timeout: 20_000 });
}
