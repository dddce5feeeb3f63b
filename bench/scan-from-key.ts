/**
 * The scan as the packer feels it: from the scanner's Enter in the page to the label at the printer
 * and the outcome on screen, next to the least a program could do, in the same run.
 *
 * Processes: one child runs the sandbox (20 ms added to every API answer, rate limit off) and a
 * virtual Zebra (1,000 labels/s, never the bottleneck): the world outside the station. Another runs
 * the station and its web host serving the built screen (out/renderer), as `npm run web` does. This
 * process runs Debian's Chromium (playwright-core, /usr/bin/chromium) on the host's launch link, and
 * two TCP proxies in front of the printer, one for the station and one for the floor, each noting
 * the time of the first `^XA` of a label, of each `^XZ`, and of the printer's first answer after it.
 *
 * A scan: the order ref typed with a scanner's timing (a few ms a key), then Enter. The clock starts
 * at the Enter's keydown in the page (its event time) and stops at the label's first `^XA` reaching
 * the printer's proxy, at the printer's answer after the label, and at the outcome in the page's DOM
 * (a MutationObserver sees the printed panel for that order). Page times are put on this process's
 * clock by a calibration (the shortest of 100 round trips; both are the machine's monotonic clock).
 * The floor, interleaved scan by scan, does only the label's HTTP GET (undici, keep-alive), the write
 * to an open printer socket and one `~HS` read on it.
 *
 * Rounds: back to back (a short pause between a scan and the floor), then at a packer's pace (one scan
 * every `paceMs`, the floor half-way between: the station's printer connection goes idle between
 * scans as at a real bench), then the ship flow (a slip scan opens the ship panel; Enter ships
 * 1 or 3 parcels) against a floor that overlaps what the Delivery API allows.
 *
 * Run: npm run bench:scan -- [--scans=200] [--paced=20] [--paceMs=6000] [--ships=20] [--latencyMs=20]
 * (or, with the screen already built: npx tsx bench/scan-from-key.ts …). --scans=0, --paced=0 or
 * --ships=0 leaves that round out. A short trial: --scans=30 --paced=5 --ships=5.
 */
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { Agent, request } from 'undici';
import { z } from 'zod';
import { chromiumLaunch } from '../playwright.config';
import { startWebHost } from '../src/main/web-host/server';
import type { Shipment } from '../src/shared/contract/shipping';
import type { RunningSandbox } from '../src/sandbox';
import { percentile, startBenchService, startBenchStation } from './print-support';

const rendererDir = resolve('out/renderer');
const ETX = String.fromCharCode(3);

// ——— the two children ———

const ServiceSideSchema = z.object({
  sandbox: z.object({
    environments: z.object({
      test: z.object({ baseUrl: z.string(), companies: z.array(z.object({ name: z.string(), apiKey: z.string(), locationIds: z.array(z.string()) })), revokedKey: z.string() }),
      live: z.object({ baseUrl: z.string(), companies: z.array(z.object({ name: z.string(), apiKey: z.string(), locationIds: z.array(z.string()) })), revokedKey: z.string() }),
    }),
    printers: z.array(z.object({ name: z.string(), host: z.string(), port: z.number().int(), discoveryPort: z.number().int() })),
    control: z.object({ baseUrl: z.string(), token: z.string() }),
  }),
  zebraPort: z.number().int(),
});
type ServiceSide = z.infer<typeof ServiceSideSchema>;

const StationSideSchema = z.object({
  launchUrl: z.string(),
  orders: z.array(z.object({ orderRef: z.string(), orderId: z.string() })),
});

async function serviceSide(latencyMs: number, orders: number): Promise<void> {
  const service = await startBenchService({
    sandbox: { orders, faults: { latencyMs, labelDelayMs: 0 }, rateLimit: { requestsPerSecond: 0 } },
    zebra: { labelsPerSecond: 1000 },
  });
  const { environments, printers, control } = service.sandbox;
  const side: ServiceSide = { sandbox: { environments, printers, control }, zebraPort: service.zebraPort };
  process.stdout.write(`${JSON.stringify(side)}\n`);
  process.stdin.resume();
  await new Promise((done) => process.stdin.once('end', done));
  await service.close();
}

const StationCommandSchema = z.object({ ship: z.number().int().min(1).max(50) });

/** The station and its web host on the built screen; its printer is the address on argv (the station's proxy). */
async function stationSide(printerPort: number): Promise<void> {
  const commands = createInterface({ input: process.stdin });
  const lines = commands[Symbol.asyncIterator]();
  const service = ServiceSideSchema.parse(JSON.parse(String((await lines.next()).value)));
  const sandbox: RunningSandbox = { ...service.sandbox, close: async () => undefined };
  const bench = await startBenchStation(sandbox, printerPort);
  const host = await startWebHost({ station: bench.station, rendererDir });
  const drafts = bench.orders.filter((order) => order.status === 'draft').map(({ orderRef, orderId }) => ({ orderRef, orderId }));
  process.stdout.write(`${JSON.stringify({ launchUrl: host.launchUrl, orders: drafts })}\n`);
  let saved = 0;
  for await (const line of { [Symbol.asyncIterator]: () => lines }) {
    const { ship: parcels } = StationCommandSchema.parse(JSON.parse(String(line)));
    saved += 1;
    const shipment: Shipment = {
      orderRef: `SLIP-${process.pid}-${saved}`,
      locationId: '1101',
      recipient: { name: 'Bench Station', email: null, phone: null },
      address: amsterdam(saved),
      parcels,
      pudoId: null,
      weight: null,
      dimensions: null,
      signature: false,
      notAtNeighbour: false,
      deliveryNote: null,
      deliveryDate: null,
      name: null,
    };
    await bench.station.services.toShip.save('sandbox', shipment, 'bench');
    process.stdout.write(`${JSON.stringify({ orderRef: shipment.orderRef })}\n`);
  }
  await host.close();
  await bench.close();
}

/** Addresses the sandbox delivers from Amsterdam (1101) without correcting them. */
const amsterdam = (n: number) => ({ street: 'Keizersgracht', houseNumber: String(100 + (n % 400)), suffix: '', postalCode: '1016 DK', city: 'Amsterdam', countryCode: 'NL' });

function startChild(role: 'service' | 'station', ...args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), role, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines: string[] = [];
  let arrived: (() => void) | null = null;
  createInterface({ input: child.stdout }).on('line', (line) => {
    lines.push(line);
    arrived?.();
  });
  const ended = new Promise<never>((_done, fail) => child.once('exit', (code) => fail(new Error(`the ${role} side ended (${code})`))));
  ended.catch(() => undefined);
  return {
    async nextLine(): Promise<string> {
      const next = (async () => {
        while (lines.length === 0) await new Promise<void>((done) => (arrived = done));
        return lines.shift() as string;
      })();
      return Promise.race([next, ended]);
    },
    send: (line: string) => child.stdin.write(`${line}\n`),
    async stop(): Promise<void> {
      const exited = new Promise((done) => child.once('exit', done));
      child.stdin.end();
      await exited;
    },
  };
}

// ——— the printer's proxy ———

/** A relay in front of the printer that notes when label bytes and the printer's answers pass. */
async function startPrinterProxy(printerPort: number) {
  let xa: number[] = [];
  let xz: number[] = [];
  let replies: number[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((incoming) => {
    incoming.setNoDelay(true);
    const outgoing = net.connect({ host: '127.0.0.1', port: printerPort, noDelay: true });
    sockets.add(incoming).add(outgoing);
    let tail = '';
    incoming.on('data', (chunk: Buffer) => {
      const at = performance.now();
      outgoing.write(chunk);
      const text = tail + chunk.toString('latin1');
      for (let index = text.indexOf('^XA'); index >= 0; index = text.indexOf('^XA', index + 3)) if (index + 3 > tail.length) xa.push(at);
      for (let index = text.indexOf('^XZ'); index >= 0; index = text.indexOf('^XZ', index + 3)) if (index + 3 > tail.length) xz.push(at);
      tail = text.slice(-2);
    });
    outgoing.on('data', (chunk: Buffer) => {
      replies.push(performance.now());
      incoming.write(chunk);
    });
    const end = () => {
      incoming.destroy();
      outgoing.destroy();
      sockets.delete(incoming);
      sockets.delete(outgoing);
    };
    incoming.on('close', end).on('error', end);
    outgoing.on('close', end).on('error', end);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the proxy has no port');
  return {
    port: address.port,
    /** Forget what passed so far: the next marks belong to the next measurement. */
    reset() {
      xa = [];
      xz = [];
      replies = [];
    },
    /** Resolves with the n-th `^XZ` since the reset (waits for it). */
    async nthEnd(n: number, timeoutMs = 30_000): Promise<number> {
      const until = performance.now() + timeoutMs;
      while (xz.length < n) {
        if (performance.now() > until) throw new Error(`only ${xz.length} of ${n} labels reached the printer`);
        await new Promise((done) => setTimeout(done, 1));
      }
      return xz[n - 1] as number;
    },
    marks: () => ({ xa: [...xa], xz: [...xz], replies: [...replies] }),
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((done) => server.close(done));
    },
  };
}
type PrinterProxy = Awaited<ReturnType<typeof startPrinterProxy>>;

// ——— the page ———

/**
 * What the page notes for the bench (an init script, before the screen's own code): the Enter's
 * keydown time, when the main thread is next free, every call frame sent and result frame received
 * with its time, long tasks, and — told by a MutationObserver — when the outcome for the awaited scan
 * is in the DOM (then a binding tells this process, so nothing polls the page).
 */
const pageProbe = `(() => {
  const probe = { enter: null, free: null, sendFrames: [], receivedFrames: [], longTasks: [], awaited: null, outcome: null, outcomeState: null };
  window.__scanBench = probe;
  // One channel for every Enter: making one costs the page ~0.1 ms, ahead of the screen's own key handler.
  const freeChannel = new MessageChannel();
  freeChannel.port1.onmessage = () => { probe.free = performance.now(); };
  addEventListener('keydown', (event) => {
    if (event.key !== 'Enter') return;
    probe.enter = event.timeStamp;
    freeChannel.port2.postMessage(0);
  }, { capture: true });
  // Frames are noted as they are (time and text) and read only when the bench asks: the probe
  // does no parsing on the scan's way out or on its result's way in.
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    if (typeof data === 'string') probe.sendFrames.push(performance.now(), data);
    return send.call(this, data);
  };
  const listen = WebSocket.prototype.addEventListener;
  WebSocket.prototype.addEventListener = function (type, listener, options) {
    if (type !== 'message' || typeof listener !== 'function') return listen.call(this, type, listener, options);
    return listen.call(this, type, function (event) {
      probe.receivedFrames.push(performance.now(), event.data);
      return listener.call(this, event);
    }, options);
  };
  window.__scanBenchRead = () => {
    const pairs = (list) => list.flatMap((at, i) => (i % 2 === 0 && typeof list[i + 1] === 'string' ? [{ at, data: list[i + 1] }] : []));
    const sends = pairs(probe.sendFrames).filter((frame) => frame.data.startsWith('{"type":"call"')).map(({ at, data }) => {
      const name = /"name":"([^"]+)"/.exec(data);
      const id = /"id":(\\d+)/.exec(data);
      return { at, name: name ? name[1] : '?', id: id ? Number(id[1]) : -1 };
    });
    const results = pairs(probe.receivedFrames).filter((frame) => frame.data.startsWith('{"type":"result"')).map(({ at, data }) => {
      const id = /"id":(\\d+)/.exec(data);
      const elapsed = /"elapsedMs":([0-9.]+)/.exec(data);
      return { at, id: id ? Number(id[1]) : -1, elapsedMs: elapsed ? Number(elapsed[1]) : null };
    });
    const { sendFrames, receivedFrames, awaited, ...rest } = probe;
    return { ...rest, sends, results };
  };
  try {
    new PerformanceObserver((list) => { for (const entry of list.getEntries()) probe.longTasks.push({ start: entry.startTime, duration: entry.duration }); }).observe({ type: 'longtask', buffered: true });
  } catch {}
  const look = () => {
    // The time the observer was called, before the probe's own checks of what changed.
    const at = performance.now();
    if (!probe.awaited || probe.outcome !== null) return;
    const awaited = probe.awaited;
    const selector = awaited.kind === 'ship-ready' ? '[data-testid="ship-panel"][data-state="ready"]' : '[data-testid="scan-result"]';
    const panel = document.querySelector(selector);
    if (!panel) return;
    if (awaited.kind === 'scan') {
      // An outcome is a new panel, or new words on the same one (a printed label after a printed
      // label); one that does not name the scan is another outcome (a key lost).
      const state = panel.getAttribute('data-state');
      const drawn = panel !== awaited.panelBefore || (panel.textContent || '') !== awaited.textBefore;
      if (state === 'working' || state === 'idle' || !drawn) return;
      probe.outcomeState = (panel.textContent || '').includes(awaited.text) ? state : 'not this scan: ' + (panel.textContent || '').slice(0, 120);
    } else if (!(panel.textContent || '').includes(awaited.text)) return;
    probe.outcome = at;
    window.__scanBenchSeen();
  };
  new MutationObserver(look).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
})();`;

const ProbeSchema = z.object({
  enter: z.number().nullable(),
  free: z.number().nullable(),
  sends: z.array(z.object({ at: z.number(), name: z.string(), id: z.number() })),
  results: z.array(z.object({ at: z.number(), id: z.number(), elapsedMs: z.number().nullable() })),
  longTasks: z.array(z.object({ start: z.number(), duration: z.number() })),
  outcome: z.number().nullable(),
  outcomeState: z.string().nullable(),
});
type Probe = z.infer<typeof ProbeSchema>;

async function openPage(launchUrl: string) {
  const browser = await chromium.launch({ ...chromiumLaunch, headless: true });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  let seen: (() => void) | null = null;
  await page.exposeBinding('__scanBenchSeen', () => seen?.());
  // The widest scanner gap Setup allows: on a loaded machine the bench's own typing may stall between keys.
  await page.addInitScript({ content: `localStorage.setItem('station.preferences.v1', JSON.stringify({ scanGapMs: 200 }));` });
  await page.addInitScript({ content: pageProbe });
  await page.goto(launchUrl);
  await page.waitForSelector('html[data-scan-ready="true"]');
  await page.waitForSelector('[data-testid="app-info"]');
  // Page time → this process's time: the shortest of 30 round trips.
  let best = { rtt: Number.POSITIVE_INFINITY, offset: 0 };
  for (let i = 0; i < 100; i++) {
    const before = performance.now();
    const pageNow = await page.evaluate(() => performance.now());
    const after = performance.now();
    if (after - before < best.rtt) best = { rtt: after - before, offset: (before + after) / 2 - pageNow };
  }
  return {
    page,
    browser,
    calibration: best,
    toLocal: (pageTime: number) => pageTime + best.offset,
    /** Arms the probe for the next outcome; resolves when the page has shown it. */
    async await(kind: 'scan' | 'ship-ready', text: string): Promise<() => Promise<void>> {
      await page.evaluate(
        ([awaitedKind, awaitedText]) => {
          const probe = (globalThis as unknown as { __scanBench: Record<string, unknown> }).__scanBench;
          Object.assign(probe, {
            enter: null,
            free: null,
            sendFrames: [],
            receivedFrames: [],
            outcome: null,
            outcomeState: null,
            awaited: (() => {
              const panelBefore = (globalThis as unknown as { document: { querySelector(selector: string): { textContent: string | null } | null } }).document.querySelector('[data-testid="scan-result"]');
              return { kind: awaitedKind, text: awaitedText, panelBefore, textBefore: panelBefore?.textContent ?? '' };
            })(),
          });
        },
        [kind, text] as const,
      );
      const shown = new Promise<void>((done) => (seen = done));
      return () => shown;
    },
    /** Waits for the awaited outcome; after 30 s says what the screen shows instead (and saves a screenshot). */
    async shownWithin(shown: () => Promise<void>, what: string, timeoutMs = 30_000): Promise<void> {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((done) => (timer = setTimeout(() => done('late'), timeoutMs)));
      const outcome = await Promise.race([shown().then(() => 'shown' as const), late]);
      clearTimeout(timer);
      if (outcome === 'shown') return;
      await page.screenshot({ path: 'test-results/scan-from-key-stuck.png' });
      const screen = await page.locator('main').innerText();
      throw new Error(`${what}: not on screen after ${timeoutMs / 1000} s (screenshot test-results/scan-from-key-stuck.png). The screen shows: ${screen.slice(0, 400)}`);
    },
    async probe(): Promise<Probe> {
      return ProbeSchema.parse(await page.evaluate(() => (globalThis as unknown as { __scanBenchRead: () => unknown }).__scanBenchRead()));
    },
  };
}
type BenchPage = Awaited<ReturnType<typeof openPage>>;

/** BENCH_PAGE_PROF=<file>: a V8 CPU profile of the page over the back-to-back round (open it in Chromium's DevTools). */
async function startPageProfile(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 50 });
  await cdp.send('Profiler.start');
  return {
    async writeTo(file: string) {
      const { profile } = await cdp.send('Profiler.stop');
      writeFileSync(file, JSON.stringify(profile));
      console.log(`page profile: ${file}`);
    },
  };
}

/** Types like a keyboard-wedge scanner (a few ms a key), then its Enter. */
async function scanLikeAScanner(page: Page, text: string): Promise<void> {
  await page.keyboard.type(text, { delay: 3 });
  await page.keyboard.press('Enter');
}

// ——— the floors ———

async function openFloor(service: ServiceSide, proxy: PrinterProxy) {
  const api = service.sandbox.environments.test;
  const key = api.companies[0]?.apiKey ?? '';
  const agent = new Agent({ connections: 8, keepAliveTimeout: 30_000 });
  const printer = net.connect({ host: '127.0.0.1', port: proxy.port, noDelay: true });
  await new Promise<void>((done) => printer.once('connect', () => done()));
  let inbound = '';
  let replied: (() => void) | null = null;
  printer.on('data', (chunk: Buffer) => {
    inbound += chunk.toString('latin1');
    // A ~HS answer is three framed strings (STX … ETX).
    if (inbound.split(ETX).length > 3) {
      inbound = '';
      replied?.();
    }
  });
  const apiCall = async <T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> => {
    const response = await request(`${api.baseUrl}${path}`, {
      method,
      dispatcher: agent,
      headers: { 'api-key': key, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await response.body.json()) as T;
    if (response.statusCode >= 300) throw new Error(`${method} ${path}: HTTP ${response.statusCode} ${JSON.stringify(json)}`);
    return json;
  };
  const label = async (orderId: string) => Buffer.from((await apiCall<{ label: string }>('GET', `/orders/label/${encodeURIComponent(orderId)}?format=zpl&orientation=landscape`)).label, 'base64');
  let floorShips = 0;
  return {
    /** GET + write + ~HS: the time to the first `^XA` at the proxy and to the printer's answer. */
    async print(orderId: string): Promise<{ toXa: number; toAnswer: number }> {
      proxy.reset();
      const started = performance.now();
      const bytes = await label(orderId);
      const answered = new Promise<void>((done) => (replied = done));
      printer.write(Buffer.concat([bytes, Buffer.from('~HS', 'latin1')]));
      await answered;
      const ended = performance.now();
      const xa = proxy.marks().xa[0] ?? Number.NaN;
      return { toXa: xa - started, toAnswer: ended - started };
    },
    /**
     * Shipping's least: the routing check, then the first create (it makes the bundle), then the
     * others joining it all at once while the first label is fetched, each label fetched as soon as
     * its order exists, written in parcel order. The time to the last label's last byte at the proxy.
     */
    async ship(parcels: number): Promise<number> {
      floorShips += 1;
      proxy.reset();
      const deliveryAddress = amsterdam(floorShips);
      const started = performance.now();
      await apiCall('POST', '/orders/check/1101', { deliveryAddress });
      const create = (parcel: number, bundleId?: string) =>
        apiCall<{ orderId: string; orderBundle: { bundleId: string } }>('POST', '/orders', {
          locationId: '1101',
          orderRef: `FLOOR-${process.pid}-${floorShips}-${parcel}`,
          deliveryName: 'Bench Floor',
          deliveryAddress,
          ...(bundleId ? { orderBundleId: bundleId } : {}),
        });
      const first = await create(1);
      const labels = [label(first.orderId)];
      for (let parcel = 2; parcel <= parcels; parcel++) labels.push(create(parcel, first.orderBundle.bundleId).then((order) => label(order.orderId)));
      for (const bytes of labels) printer.write(await bytes);
      return (await proxy.nthEnd(parcels)) - started;
    },
    async close() {
      printer.destroy();
      await agent.close();
    },
  };
}
type Floor = Awaited<ReturnType<typeof openFloor>>;

// ——— the rounds ———

interface ScanMeasure {
  enterToXa: number;
  enterToAnswer: number;
  enterToDom: number;
  enterToSend: number;
  enterToFree: number;
  sendToXa: number;
  xaToAnswer: number;
  answerToResult: number;
  resultToDom: number;
  stationOwn: number;
  callsBeforeScan: number;
  otherCalls: number;
  longTasks: number;
}

/** One scan measured; null when the page never took it for a scan (keys too far apart on a loaded machine). */
async function measuredScan(page: BenchPage, proxy: PrinterProxy, orderRef: string): Promise<ScanMeasure | null> {
  const shown = await page.await('scan', orderRef);
  proxy.reset();
  await scanLikeAScanner(page.page, orderRef);
  try {
    await page.shownWithin(shown, orderRef, 10_000);
  } catch (error) {
    const sent = await page.probe();
    if (sent.sends.some((send) => send.name === 'printing.scan' || send.name === 'printing.print')) throw error;
    console.log(`${orderRef}: not taken for a scan (the bench's keys came too far apart); left out`);
    return null;
  }
  const probe = await page.probe();
  if (probe.outcomeState !== 'printed') throw new Error(`${orderRef}: the screen shows ${probe.outcomeState}`);
  const { xa, replies } = proxy.marks();
  const enter = page.toLocal(probe.enter ?? Number.NaN);
  const xaAt = xa[0] ?? Number.NaN;
  const answerAt = replies.find((at) => at >= xaAt) ?? Number.NaN;
  const enterPage = probe.enter ?? Number.NaN;
  // Calls from the Enter on (a refresh may have left while the scanner typed).
  const sends = probe.sends.filter((send) => send.at >= enterPage);
  // printing.print too: the same bench measures a screen from before the scan call (for a before/after).
  const scanIndex = sends.findIndex((send) => send.name === 'printing.scan' || send.name === 'printing.print');
  const scanSend = sends[scanIndex];
  const result = probe.results.find((entry) => entry.id === scanSend?.id);
  const dom = page.toLocal(probe.outcome ?? Number.NaN);
  return {
    enterToXa: xaAt - enter,
    enterToAnswer: answerAt - enter,
    enterToDom: dom - enter,
    enterToSend: (scanSend?.at ?? Number.NaN) - enterPage,
    enterToFree: (probe.free ?? Number.NaN) - enterPage,
    sendToXa: xaAt - page.toLocal(scanSend?.at ?? Number.NaN),
    xaToAnswer: answerAt - xaAt,
    answerToResult: page.toLocal(result?.at ?? Number.NaN) - answerAt,
    resultToDom: (probe.outcome ?? Number.NaN) - (result?.at ?? Number.NaN),
    stationOwn: result?.elapsedMs ?? Number.NaN,
    callsBeforeScan: scanIndex < 0 ? sends.length : scanIndex,
    otherCalls: sends.filter((send) => send.at <= (probe.outcome ?? enterPage)).length - (scanIndex < 0 ? 0 : 1),
    longTasks: probe.longTasks.filter((task) => task.start + task.duration >= enterPage && task.start <= (probe.outcome ?? enterPage)).length,
  };
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

interface Row {
  name: string;
  values: number[];
}
const stats = (values: number[]) => {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p90: percentile(sorted, 90), p99: percentile(sorted, 99), n: sorted.length };
};
const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(1).padStart(7) : '    n/a');
function table(rows: Row[]): void {
  console.log(`${''.padEnd(46)}     p50     p90     p99`);
  for (const row of rows) {
    const s = stats(row.values);
    console.log(`${row.name.padEnd(46)} ${ms(s.p50)} ${ms(s.p90)} ${ms(s.p99)}`);
  }
}
function ratios(name: string, station: number[], floor: number[]): void {
  const s = stats(station);
  const f = stats(floor);
  console.log(`${name.padEnd(46)} ${(s.p50 / f.p50).toFixed(3).padStart(7)} ${(s.p90 / f.p90).toFixed(3).padStart(7)} ${(s.p99 / f.p99).toFixed(3).padStart(7)}`);
}
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' / ');

async function scanRound(title: string, scans: number, paceMs: number, page: BenchPage, stationProxy: PrinterProxy, floor: Floor, orders: () => { orderRef: string; orderId: string }): Promise<void> {
  if (scans <= 0) return;
  const loadBefore = load();
  const measures: ScanMeasure[] = [];
  const floors: { toXa: number; toAnswer: number }[] = [];
  const roundStarted = performance.now();
  for (let i = 0; i < scans; i++) {
    const scanAt = roundStarted + i * paceMs;
    if (paceMs > 0) await sleep(Math.max(0, scanAt - performance.now()));
    // Back to back: alternate which goes first; at a pace, the floor goes half-way between two scans.
    if (paceMs === 0 && i % 2 === 1) {
      floors.push(await floor.print(orders().orderId));
      await sleep(20);
    }
    const measure = await measuredScan(page, stationProxy, orders().orderRef);
    if (measure) measures.push(measure);
    if (paceMs > 0) await sleep(Math.max(0, scanAt + paceMs / 2 - performance.now()));
    else await sleep(20);
    if (paceMs > 0 || i % 2 === 0) floors.push(await floor.print(orders().orderId));
    await sleep(20);
  }
  const column = (key: keyof ScanMeasure) => measures.map((measure) => measure[key]);
  const floorAnswer = floors.map((entry) => entry.toAnswer);
  console.log(`\n## ${title}: ${measures.length} scans, ${floors.length} floor prints${paceMs > 0 ? `, one scan every ${paceMs / 1000} s` : ''}; load average (1/5/15 min) ${loadBefore} before, ${load()} after`);
  table([
    { name: 'Enter → label’s ^XA at the printer', values: column('enterToXa') },
    { name: 'Enter → printer’s answer after the label', values: column('enterToAnswer') },
    { name: 'Enter → the outcome in the DOM', values: column('enterToDom') },
    { name: 'floor: GET + write + ~HS answer', values: floorAnswer },
    { name: 'floor: GET → ^XA at the printer', values: floors.map((entry) => entry.toXa) },
  ]);
  console.log('ratios to the floor (GET + write + ~HS)');
  ratios('  Enter → ^XA / floor', column('enterToXa'), floorAnswer);
  ratios('  Enter → printer’s answer / floor', column('enterToAnswer'), floorAnswer);
  ratios('  Enter → outcome on screen / floor', column('enterToDom'), floorAnswer);
  console.log('where the time goes');
  table([
    { name: '  Enter → the scan’s call leaves the page', values: column('enterToSend') },
    { name: '  Enter → the page’s main thread is free', values: column('enterToFree') },
    { name: '  call leaves → ^XA at the printer', values: column('sendToXa') },
    { name: '  ^XA → the printer’s answer', values: column('xaToAnswer') },
    { name: '  printer’s answer → the result reaches the page', values: column('answerToResult') },
    { name: '  result reaches the page → outcome in the DOM', values: column('resultToDom') },
    { name: '  the station’s own count (elapsedMs)', values: column('stationOwn') },
  ]);
  const sum = (key: keyof ScanMeasure) => measures.reduce((total, measure) => total + measure[key], 0);
  console.log(
    `calls sent before the scan's: ${sum('callsBeforeScan')} in all; other calls between Enter and the outcome: ${sum('otherCalls')}; long tasks (≥ 50 ms) between Enter and outcome: ${sum('longTasks')}`,
  );
}

async function shipRound(ships: number, page: BenchPage, station: ReturnType<typeof startChild>, stationProxy: PrinterProxy, floor: Floor): Promise<void> {
  if (ships <= 0) return;
  for (const parcels of [1, 3]) {
    const loadBefore = load();
    const toPanel: number[] = [];
    const toLast: number[] = [];
    const slipToLast: number[] = [];
    const floors: number[] = [];
    for (let i = -2; i < ships; i++) {
      station.send(JSON.stringify({ ship: parcels }));
      const { orderRef } = z.object({ orderRef: z.string() }).parse(JSON.parse(await station.nextLine()));
      const ready = await page.await('ship-ready', orderRef);
      await scanLikeAScanner(page.page, orderRef);
      await page.shownWithin(ready, `the ship panel for ${orderRef}`);
      const opened = await page.probe();
      const slipEnter = page.toLocal(opened.enter ?? Number.NaN);
      const shipped = await page.await('scan', '\u0000never');
      stationProxy.reset();
      await page.page.keyboard.press('Enter');
      const lastByte = await stationProxy.nthEnd(parcels);
      const probe = await page.probe();
      void shipped;
      const shipEnter = page.toLocal(probe.enter ?? Number.NaN);
      await page.page.waitForSelector('[data-testid="ship-panel"][data-state="shipped"]');
      await sleep(20);
      const floorTime = await floor.ship(parcels);
      await sleep(20);
      if (i < 0) continue;
      toPanel.push(page.toLocal(opened.outcome ?? Number.NaN) - slipEnter);
      toLast.push(lastByte - shipEnter);
      slipToLast.push(lastByte - slipEnter);
      floors.push(floorTime);
    }
    // Back to the scan screen for the next slip.
    await page.page.keyboard.press('Escape');
    console.log(`\n## Ship flow, ${parcels} parcel${parcels > 1 ? 's' : ''}: ${toLast.length} ships; load average ${loadBefore} before, ${load()} after`);
    table([
      { name: 'slip scan Enter → ship panel on screen', values: toPanel },
      { name: 'ship Enter → last label byte at the printer', values: toLast },
      { name: 'slip Enter → last label byte (bench’s Enter on the panel)', values: slipToLast },
      { name: 'floor: check → creates ‖ labels → writes', values: floors },
    ]);
    ratios('ratio, ship Enter → last byte / floor', toLast, floors);
  }
}

async function main(): Promise<void> {
  const args = Object.fromEntries(
    process.argv
      .slice(2)
      .map((arg) => /^--(\w+)=(.*)$/.exec(arg))
      .filter((match): match is RegExpExecArray => match !== null)
      .map((match) => [match[1], Number(match[2])]),
  ) as Record<string, number>;
  const scans = args.scans ?? 200;
  const paced = args.paced ?? 20;
  const paceMs = args.paceMs ?? 6000;
  const ships = args.ships ?? 20;
  const latencyMs = args.latencyMs ?? 20;
  if (!existsSync(resolve(rendererDir, 'index.html'))) throw new Error('The screen is not built: run `npm run build` first (or `npm run bench:scan`, which builds it).');
  const ordersNeeded = 2 * (scans + paced) + 40;

  console.log(`# Scan from the key: ${new Date().toISOString()}, sandbox latency ${latencyMs} ms per answer, printer on loopback behind a proxy`);
  console.log(`load average (1/5/15 min) at the start: ${load()}`);
  const service = startChild('service', String(latencyMs), String(Math.max(600, ordersNeeded * 3 + 200)));
  const serviceLine = await service.nextLine();
  const serviceSide = ServiceSideSchema.parse(JSON.parse(serviceLine));
  const stationProxy = await startPrinterProxy(serviceSide.zebraPort);
  const floorProxy = await startPrinterProxy(serviceSide.zebraPort);
  const station = startChild('station', String(stationProxy.port));
  station.send(serviceLine);
  const side = StationSideSchema.parse(JSON.parse(await station.nextLine()));
  if (side.orders.length < ordersNeeded) throw new Error(`only ${side.orders.length} printable orders for ${ordersNeeded}`);
  let next = 0;
  const orders = () => side.orders[next++] as { orderRef: string; orderId: string };

  const page = await openPage(side.launchUrl);
  console.log(`page clock calibrated to ±${(page.calibration.rtt / 2).toFixed(2)} ms`);
  const floor = await openFloor(serviceSide, floorProxy);
  try {
    // Warm-up: connections, JIT, the printer's first labels; not counted.
    for (let i = 0; i < 8; i++) {
      // A cold page on a busy machine may lose a key of its first scans: warm-up scans may fail.
      await measuredScan(page, stationProxy, orders().orderRef).catch((error: unknown) => console.log(`warm-up scan: ${String(error).split('\n')[0]}`));
      await floor.print(orders().orderId);
    }
    const pageProfile = process.env.BENCH_PAGE_PROF ? await startPageProfile(page.page) : null;
    if (process.env.BENCH_PAGE_TRACE) await page.browser.startTracing(page.page, { path: process.env.BENCH_PAGE_TRACE, categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink.user_timing', 'toplevel', 'v8', 'blink', 'disabled-by-default-v8.gc'] });
    await scanRound('Back to back', scans, 0, page, stationProxy, floor, orders);
    if (process.env.BENCH_PAGE_TRACE) await page.browser.stopTracing();
    if (pageProfile && process.env.BENCH_PAGE_PROF) await pageProfile.writeTo(process.env.BENCH_PAGE_PROF);
    await scanRound('At a packer’s pace', paced, paceMs, page, stationProxy, floor, orders);
    await shipRound(ships, page, station, stationProxy, floor);
  } finally {
    await floor.close();
    await page.browser.close();
    await station.stop();
    await service.stop();
    await stationProxy.close();
    await floorProxy.close();
  }
}

if (process.argv[2] === 'service') await serviceSide(Number(process.argv[3] ?? 20), Number(process.argv[4] ?? 1400));
else if (process.argv[2] === 'station') await stationSide(Number(process.argv[3]));
else await main();
