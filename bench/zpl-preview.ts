/**
 * The first ZPL preview in a page, as a lead opens it: a fresh station (the built web host on its
 * embedded sandbox) and a fresh page in Debian's Chromium, Printers, a ZPL label file chosen; the
 * clock runs from choosing the file to the drawn label in the page, and the processor time is every
 * Chromium process's over the same stretch (the preview worker downloads and compiles Zebrash's
 * WebAssembly, then draws). One new station and page per round: a page keeps the compiled module,
 * so only its first preview pays for it.
 *
 * Run (the screen built first): npx electron-vite build && npx tsx bench/zpl-preview.ts [rounds]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { chromium } from 'playwright-core';
import { chromiumLaunch } from '../playwright.config';
import { renderZplLabel } from '../src/sandbox/labels/zpl';
import { removeDataDir, startStationHost } from '../test/e2e/station-host';
import { labelFixture } from '../test/unit/sandbox-labels/label-fixture';
import { waitUntil } from '../test/support/wait-until';
import { percentile } from './print-support';

const rounds = Number(process.argv[2] ?? 5);
const label = renderZplLabel(labelFixture(), 'portrait');

/** Seconds of processor time used so far by every Chromium process (and the children it waited for). */
function chromiumCpuSeconds(): number {
  let total = 0;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (!readFileSync(`/proc/${name}/cmdline`, 'utf8').includes('chromium')) continue;
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      total += (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / 100;
    } catch {
      // The process ended while it was read.
    }
  }
  return total;
}

const browser = await chromium.launch(chromiumLaunch);
const times: number[] = [];
const cpu: number[] = [];
const loadBefore = loadavg();
try {
  for (let round = 0; round < rounds; round += 1) {
    const station = await startStationHost();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const page = await context.newPage();
      await page.goto(station.launchUrl);
      // Read from outside the page: its CSP allows no eval.
      await waitUntil(async () => (await page.getAttribute('html', 'data-scan-ready')) === 'true', 'the page ready to scan', 30_000);
      await page.keyboard.press('F3');
      await page.waitForSelector('[data-testid="label-file"]', { state: 'attached' });
      const cpuBefore = chromiumCpuSeconds();
      const started = performance.now();
      await page.setInputFiles('[data-testid="label-file"]', { name: 'label.zpl', mimeType: 'text/plain', buffer: Buffer.from(label) });
      await page.waitForSelector('[data-testid="preview-image"]', { state: 'attached', timeout: 30_000 });
      times.push(performance.now() - started);
      cpu.push(chromiumCpuSeconds() - cpuBefore);
      console.log(`round ${round + 1}: ${times.at(-1)!.toFixed(0)} ms, ${cpu.at(-1)!.toFixed(2)} CPU-s`);
    } finally {
      await context.close();
      await station.stop();
      removeDataDir(station.dataDir);
    }
  }
} finally {
  await browser.close();
}
const loadAfter = loadavg();
times.sort((a, b) => a - b);
cpu.sort((a, b) => a - b);
console.log(`\nfirst ZPL preview in a fresh page, ${rounds} rounds; load average (1 min) ${loadBefore[0]!.toFixed(2)} before, ${loadAfter[0]!.toFixed(2)} after`);
console.log(`choosing the file → the drawn label: median ${percentile(times, 50).toFixed(0)} ms (${times[0]!.toFixed(0)}–${times.at(-1)!.toFixed(0)})`);
console.log(`Chromium's processor time meanwhile: median ${percentile(cpu, 50).toFixed(2)} CPU-s (${cpu[0]!.toFixed(2)}–${cpu.at(-1)!.toFixed(2)})`);
