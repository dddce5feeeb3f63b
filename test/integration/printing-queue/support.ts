import { afterAll, beforeAll } from 'vitest';
import { z } from 'zod';
import type { EventName, EventPayload } from '../../../src/shared/contract';
import { attachEmbeddedSandbox } from '../../../src/main/embedded-sandbox';
import type { StationOptions } from '../../../src/main/composition';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../../src/sandbox';
import { VirtualZebra, type VirtualZebraOptions } from '../../../src/sandbox/printer';
import { createTestStation, memoryKeyStore, type TestStation } from '../../support/station';

/** The parcel barcode a ZPL label encodes (the sandbox's labels carry one Code 128). */
export function barcodeOfZpl(zpl: string): string | null {
  return /\^BC[^^]*\^FD([^^]*)\^FS/.exec(zpl)?.[1] ?? null;
}

const TodaysOrderSchema = z.object({
  orderRef: z.string(),
  orderId: z.string(),
  barcode: z.string(),
  bundleId: z.string(),
  status: z.string(),
  companyName: z.string(),
  zplAvailable: z.boolean(),
});
export type TodaysOrder = z.infer<typeof TodaysOrderSchema>;

export async function controlCall(sandbox: RunningSandbox, path: string, init: { method?: string; body?: unknown } = {}): Promise<unknown> {
  const response = await fetch(`${sandbox.control.baseUrl}${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${sandbox.control.token}`, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  if (!response.ok) throw new Error(`control ${path}: HTTP ${response.status} ${await response.text()}`);
  return response.json();
}

/** The station company's (the sandbox's first test company) orders of today. */
export async function stationOrders(sandbox: RunningSandbox): Promise<TodaysOrder[]> {
  const company = sandbox.environments.test.companies[0]?.name;
  const body = z.object({ orders: z.array(z.looseObject(TodaysOrderSchema.shape)) }).parse(await controlCall(sandbox, '/environments/test/todays-orders'));
  return body.orders.filter((order) => order.companyName === company).map((order) => TodaysOrderSchema.parse(order));
}

/**
 * Whole bundles whose orders all print as native ZPL, adding up to exactly `labels` labels (bundles
 * in the sandbox's order, smaller ones filling the end).
 */
export function bundlesWithLabels(orders: TodaysOrder[], labels: number, skipBundles: ReadonlySet<string> = new Set()): { bundleIds: string[]; orders: TodaysOrder[] } {
  const byBundle = new Map<string, TodaysOrder[]>();
  for (const order of orders) byBundle.set(order.bundleId, [...(byBundle.get(order.bundleId) ?? []), order]);
  const chosen: string[] = [];
  const chosenOrders: TodaysOrder[] = [];
  let total = 0;
  for (const [bundleId, members] of byBundle) {
    if (skipBundles.has(bundleId)) continue;
    if (!members.every((order) => order.zplAvailable && order.status !== 'cancelled')) continue;
    if (total + members.length > labels) continue;
    chosen.push(bundleId);
    chosenOrders.push(...members);
    total += members.length;
    if (total === labels) break;
  }
  if (total !== labels) throw new Error(`only ${total} labels in whole printable bundles, wanted ${labels}`);
  return { bundleIds: chosen, orders: chosenOrders };
}

export async function startTestSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  return startSandbox({ printers: 0, orders: 1400, rateLimit: { requestsPerSecond: 0 }, ...options });
}

/**
 * A file's own sandbox of `orders` orders, started before its tests and closed after them with
 * whatever the tests left to clean up (last in, first out); `freshBundles` hands each test whole
 * printable bundles no other test of the file used.
 */
export function sandboxForTheFile(orders: number): {
  sandbox(): RunningSandbox;
  freshBundles(labels: number): { bundleIds: string[]; orders: TodaysOrder[] };
  /** One order whose bundle no other test used, and its bundle kept from them. */
  freshOrder(match: (order: TodaysOrder) => boolean): TodaysOrder;
  cleanups: (() => Promise<void>)[];
} {
  let sandbox: RunningSandbox | undefined;
  let printable: TodaysOrder[] = [];
  const used = new Set<string>();
  const cleanups: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    sandbox = await startTestSandbox({ orders });
    printable = (await stationOrders(sandbox)).filter((order) => order.zplAvailable && order.status !== 'cancelled');
  });
  afterAll(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    await sandbox?.close();
  });
  return {
    sandbox: () => {
      if (!sandbox) throw new Error('the sandbox is started before the tests');
      return sandbox;
    },
    freshBundles: (labels) => {
      const chosen = bundlesWithLabels(
        printable.filter((order) => !used.has(order.bundleId)),
        labels,
      );
      for (const order of chosen.orders) used.add(order.bundleId);
      return chosen;
    },
    freshOrder: (match) => {
      const order = printable.find((candidate) => match(candidate) && !used.has(candidate.bundleId));
      if (!order) throw new Error('no order left for this test');
      used.add(order.bundleId);
      return order;
    },
    cleanups,
  };
}

export async function startZebra(options: VirtualZebraOptions = {}): Promise<{ zebra: VirtualZebra; port: number }> {
  const zebra = new VirtualZebra({ labelsPerSecond: 100, ...options });
  const port = await zebra.start({ host: '127.0.0.1', port: 0 });
  return { zebra, port };
}

export interface PrintingStation extends TestStation {
  printerId: string;
  events: { name: EventName; payload: unknown }[];
  waitForEvent<E extends EventName>(name: E, match: (payload: EventPayload<E>) => boolean, timeoutMs?: number): Promise<EventPayload<E>>;
  call<T = unknown>(name: string, input: unknown): Promise<T>;
}

/** A station over a temp folder, on the shared sandbox, with the virtual Zebra as its printer for everything. */
export async function createPrintingStation(
  sandbox: RunningSandbox,
  port: number,
  overrides: Partial<StationOptions> = {},
  printer: { orientation?: 'landscape' | 'portrait'; maxFormatsInBuffer?: number; gfaEncoding?: 'compressed' | 'hex' } = {},
  /** 'test': the sandbox's test environment with an empty order index (nothing imported). */
  environment: 'sandbox' | 'test' = 'sandbox',
): Promise<PrintingStation> {
  const test = await createTestStation({
    sandbox: attachEmbeddedSandbox(sandbox),
    ...(environment === 'test' ? { keyStore: memoryKeyStore({ test: { key: sandbox.environments.test.companies[0]?.apiKey ?? '', address: sandbox.environments.test.baseUrl } }) } : {}),
    printing: {
      queueTiming: { faultPollMs: 100 },
      serviceRetryMs: 500,
      progressIntervalMs: 50,
      transports: { network: { queryTimeoutMs: 1500, connectTimeoutMs: 1000 } },
    },
    ...overrides,
  });
  const events: { name: EventName; payload: unknown }[] = [];
  const waiters = new Set<() => void>();
  test.station.events.subscribe((name, payload) => {
    events.push({ name, payload });
    for (const waiter of [...waiters]) waiter();
  });
  const call = async <T>(name: string, input: unknown): Promise<T> => {
    const result = await test.station.dispatcher.dispatch(name, input, { host: 'web' });
    if (!result.ok) throw Object.assign(new Error(`${name}: ${result.error.code} ${result.error.message}`), { data: result.error });
    return result.value as T;
  };
  if (environment === 'test') {
    test.station.settings.setApiBaseUrl('test', sandbox.environments.test.baseUrl);
    test.station.settings.setEnvironment('test');
  } else {
    await test.station.services.sandboxReady();
  }
  const added = await call<{ printer: { id: string } }>('printers.add', {
    name: 'Bench Zebra',
    address: { kind: 'network-zebra', host: '127.0.0.1', port },
    orientation: printer.orientation ?? 'landscape',
    defaultForSingle: true,
    defaultForBundles: true,
    check: false,
    ...(printer.maxFormatsInBuffer !== undefined ? { maxFormatsInBuffer: printer.maxFormatsInBuffer } : {}),
    ...(printer.gfaEncoding !== undefined ? { gfaEncoding: printer.gfaEncoding } : {}),
  });
  const waitForEvent = <E extends EventName>(name: E, match: (payload: EventPayload<E>) => boolean, timeoutMs = 30_000): Promise<EventPayload<E>> =>
    new Promise((resolve, reject) => {
      const check = (): boolean => {
        const found = events.find((event) => event.name === name && match(event.payload as EventPayload<E>));
        if (!found) return false;
        clearTimeout(timer);
        waiters.delete(onEvent);
        resolve(found.payload as EventPayload<E>);
        return true;
      };
      const onEvent = (): void => void check();
      const timer = setTimeout(() => {
        waiters.delete(onEvent);
        reject(new Error(`no ${name} event matched within ${timeoutMs} ms`));
      }, timeoutMs);
      if (!check()) waiters.add(onEvent);
    });
  return { ...test, printerId: added.printer.id, events, waitForEvent, call };
}
