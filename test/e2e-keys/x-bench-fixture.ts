import type { Page } from '@playwright/test';
import { chromiumLaunch } from '../../playwright.config';
import { test as bench } from '../e2e/screens/bench-fixture';
import { startXvfb, XKeyboard, type XServer } from './x-keyboard';

/**
 * A bench whose keys come from an X server: Debian's full Chromium (not the headless shell,
 * which has no X keyboard) in a window on an Xvfb of the worker's own, its keyboard layout set
 * with setxkbmap and keys pressed by keycode through XTEST. The station, its virtual Zebra and
 * today's sandbox orders are the screen tests' own (bench-fixture.ts).
 */
export const test = bench.extend<object, { xserver: XServer; keyboard: XKeyboard }>({
  xserver: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await startXvfb();
      await use(server);
      await server.stop();
    },
    { scope: 'worker' },
  ],
  keyboard: [
    async ({ xserver }, use) => {
      const keyboard = await XKeyboard.open(xserver);
      await use(keyboard);
      await keyboard.close();
    },
    { scope: 'worker' },
  ],
  browser: [
    async ({ xserver, playwright }, use) => {
      const browser = await playwright.chromium.launch({
        ...chromiumLaunch,
        executablePath: '/usr/bin/chromium',
        headless: false,
        env: { ...process.env, DISPLAY: xserver.display },
        args: [...chromiumLaunch.args, '--window-position=0,0', '--window-size=1100,900'],
      });
      await use(browser);
      await browser.close();
    },
    { scope: 'worker' },
  ],
});

export { expect } from '../e2e/screens/bench-fixture';

/** Brings the page's window to the front and the pointer over it, so the X server's keys reach it. */
export async function focusPage(page: Page, keyboard: XKeyboard): Promise<void> {
  await page.bringToFront();
  await keyboard.focusAt(400, 400);
}

/** Every scan the page sent the station (`printing.scan` over the web host's socket), as it read it. */
export function scansSentBy(page: Page): string[] {
  const sent: string[] = [];
  page.on('websocket', (socket) =>
    socket.on('framesent', (frame) => {
      if (typeof frame.payload !== 'string') return;
      const message = JSON.parse(frame.payload) as { name?: string; input?: { scan?: string } };
      if (message.name === 'printing.scan' && typeof message.input?.scan === 'string') sent.push(message.input.scan);
    }),
  );
  return sent;
}
