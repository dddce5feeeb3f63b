import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';

/** Every language the screen has a translation file for (`i18n/<code>.json`). */
export function screenLanguages(): string[] {
  return readdirSync(join(process.cwd(), 'src/renderer/src/i18n'))
    .filter((name) => /^[a-z]{2}\.json$/.test(name))
    .map((name) => name.slice(0, 2))
    .sort();
}

/** The bench screen sizes the layout is checked at. */
export const benchSizes = [
  { width: 1024, height: 768 },
  { width: 1280, height: 800 },
] as const;

/** Where the screen keeps its preferences in the page's storage (src/renderer/src/state/preferences.ts). */
const preferencesStorageKey = 'station.preferences.v1';

/** Opens the page in the given language: set in the page's preferences before it starts, as Setup would. */
export async function chooseLanguageBeforeStart(page: Page, language: string): Promise<void> {
  await page.addInitScript({
    content: `(() => {
      const key = ${JSON.stringify(preferencesStorageKey)};
      let stored = {};
      try { stored = JSON.parse(localStorage.getItem(key) || '{}') || {}; } catch { stored = {}; }
      localStorage.setItem(key, JSON.stringify({ ...stored, language: ${JSON.stringify(language)} }));
    })();`,
  });
}

/**
 * Every element of the area whose content overflows it (scroll size beyond client size) or whose
 * box leaves the area or the viewport: what a packer would see cut off. Empty when it all fits.
 */
export async function clippedInside(area: Locator): Promise<string[]> {
  // A function given as text (these tests are typed without the DOM's types); Playwright sends its source to the page.
  const inPage = new Function('root', clippedInsideBody) as (root: unknown) => string[];
  return area.evaluate(inPage);
}

const clippedInsideBody = `
  const problems = [];
  const tolerance = 1;
  const rootBox = root.getBoundingClientRect();
  const name = (element) => {
    const id = element.getAttribute('data-testid');
    const classes = typeof element.className === 'string' && element.className ? '.' + element.className.split(' ').join('.') : '';
    return element.tagName.toLowerCase() + (id ? '[' + id + ']' : '') + classes + ' "' + (element.textContent || '').trim().slice(0, 40) + '"';
  };
  const outside = (box, area) => box.left < area.left - tolerance || box.top < area.top - tolerance || box.right > area.right + tolerance || box.bottom > area.bottom + tolerance;
  const viewport = { left: 0, top: 0, right: window.innerWidth, bottom: window.innerHeight };
  for (const element of [root, ...root.querySelectorAll('*')]) {
    const style = getComputedStyle(element);
    if (style.display === 'none' || style.visibility === 'hidden') continue;
    if (element instanceof HTMLElement) {
      if (element.scrollWidth > element.clientWidth + tolerance) problems.push(name(element) + ' overflows across: ' + element.scrollWidth + ' > ' + element.clientWidth);
      if (element.scrollHeight > element.clientHeight + tolerance) problems.push(name(element) + ' overflows down: ' + element.scrollHeight + ' > ' + element.clientHeight);
    }
    const box = element.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    if (outside(box, viewport)) problems.push(name(element) + ' leaves the viewport: ' + [box.left, box.top, box.right, box.bottom].map(Math.round).join(','));
    if (element !== root && outside(box, rootBox)) problems.push(name(element) + ' leaves its area');
  }
  return problems;`;
