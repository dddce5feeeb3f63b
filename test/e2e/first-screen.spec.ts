import { readFileSync } from 'node:fs';
import { expect, test } from './web-host-fixture';

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

test('the first screen shows what app.info returned from the station', async ({ page, webHost }) => {
  await page.goto(webHost.launchUrl);
  // The token leaves the address bar once traded for the session cookie.
  await expect(page).toHaveURL(`${webHost.url}/`);
  await expect(page.getByTestId('environment')).toHaveText('SANDBOX');
  await expect(page.getByTestId('version')).toHaveText(version);
  await expect(page.getByTestId('host')).toHaveText('Browser (web host)');
  await expect(page.getByTestId('station-name')).toHaveText('Packing bench');
  await page.screenshot({ path: 'test-results/screens/first-screen.png' });
});

test('a page opened without the token is refused and the station never answers it', async ({ page, webHost }) => {
  const response = await page.goto(webHost.url);
  expect(response?.status()).toBe(401);
  await expect(page.locator('body')).toContainText('link the web host printed');

  // Even a page on the same origin cannot open the socket without the session cookie.
  const outcome = await page.evaluate(
    (socketUrl) =>
      new Promise<string>((resolve) => {
        const ws = new WebSocket(socketUrl);
        ws.onopen = () => resolve('opened');
        ws.onerror = () => resolve('refused');
      }),
    `${webHost.url.replace('http', 'ws')}/station`,
  );
  expect(outcome).toBe('refused');
});
