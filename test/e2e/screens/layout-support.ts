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

/**
 * The contrast ratio (WCAG 2.x) of an element's text colour against the colour behind it: the
 * nearest ancestor's background that is not transparent. For text on plain fills, as the station
 * draws it.
 */
export async function contrastOf(element: Locator): Promise<number> {
  const inPage = new Function('element', contrastBody) as (element: unknown) => number;
  return element.evaluate(inPage);
}

const contrastBody = `
  const parse = (colour) => {
    const parts = colour.match(/[\\d.]+/g).map(Number);
    return { rgb: parts.slice(0, 3), alpha: parts.length > 3 ? parts[3] : 1 };
  };
  const luminance = ([r, g, b]) => {
    const channel = (value) => {
      const v = value / 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  };
  let behind = null;
  for (let node = element; node && node instanceof Element; node = node.parentElement) {
    const background = parse(getComputedStyle(node).backgroundColor);
    if (background.alpha > 0) { behind = background.rgb; break; }
  }
  behind = behind || [255, 255, 255];
  const text = parse(getComputedStyle(element).color);
  // Text drawn with opacity (or a translucent colour) mixes with what is behind it.
  const opacity = text.alpha * Number(getComputedStyle(element).opacity);
  const mixed = text.rgb.map((value, index) => value * opacity + behind[index] * (1 - opacity));
  const [light, dark] = [luminance(mixed), luminance(behind)].sort((a, b) => b - a);
  return (light + 0.05) / (dark + 0.05);`;
