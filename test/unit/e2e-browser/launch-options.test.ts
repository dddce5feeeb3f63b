import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { chromiumLaunch, playwrightDisabledFeatures } from '../../../playwright.config';

/** The features playwright-core itself switches off, read from its source as installed. */
function playwrightsOwnDisabledFeatures(): string[] {
  const source = readFileSync(createRequire(import.meta.url).resolve('playwright-core/lib/coreBundle'), 'utf8');
  const list = /disabledFeatures = \[([\s\S]*?)\]\.filter\(Boolean\)/.exec(source)?.[1];
  if (list === undefined) throw new Error('playwright-core no longer lists its disabled Chromium features where this test looks: check them by hand');
  return [...list.replace(/\/\/.*$/gm, '').matchAll(/"([^"]+)"/g)].map((match) => match[1]!);
}

describe('the Chromium the end-to-end tests launch', () => {
  it('keeps every feature Playwright switches off, since Chromium honours only the last --disable-features', () => {
    const own = playwrightsOwnDisabledFeatures();
    expect(own.length).toBeGreaterThan(5);
    expect([...playwrightDisabledFeatures].sort()).toEqual([...own].sort());
    const switches = chromiumLaunch.args.filter((arg) => arg.startsWith('--disable-features='));
    expect(switches).toHaveLength(1);
    const disabled = switches[0]!.slice('--disable-features='.length).split(',');
    for (const feature of own) expect(disabled).toContain(feature);
    expect(disabled).toEqual(expect.arrayContaining(['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup']));
  });
});
