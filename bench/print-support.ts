/**
 * Shared by the printing benchmarks: a sandbox, a virtual Zebra and a station (the real
 * composition root over a temp folder) wired together over loopback.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { composeStation, type Station } from '../src/main/composition';
import { attachEmbeddedSandbox } from '../src/main/embedded-sandbox';
import type { KeyStore } from '../src/main/keys/key-store';
import { createLogger } from '../src/main/logging/logger';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../src/sandbox';
import { VirtualZebra, type VirtualZebraOptions } from '../src/sandbox/printer';

export interface TodaysOrder {
  orderRef: string;
  orderId: string;
  barcode: string;
  bundleId: string;
  status: string;
  companyName: string;
  zplAvailable: boolean;
}

const noKeys: KeyStore = { has: async () => false, get: async () => null, set: async () => undefined, remove: async () => false };

export interface PrintBench {
  sandbox: RunningSandbox;
  zebra: VirtualZebra;
  zebraPort: number;
  station: Station;
  printerId: string;
  /** The station company's printable orders of today (native ZPL, not cancelled), in bundle order. */
  orders: TodaysOrder[];
  call<T>(name: string, input: unknown): Promise<T>;
  close(): Promise<void>;
}

/** What stands for the world outside the station: the Delivery API (the sandbox) and a printer. */
export interface BenchService {
  sandbox: RunningSandbox;
  zebra: VirtualZebra;
  zebraPort: number;
  close(): Promise<void>;
}

export async function startBenchService(options: { sandbox: SandboxOptions; zebra: VirtualZebraOptions }): Promise<BenchService> {
  const sandbox = await startSandbox({ printers: 0, ...options.sandbox });
  const zebra = new VirtualZebra(options.zebra);
  const zebraPort = await zebra.start({ host: '127.0.0.1', port: 0 });
  return {
    sandbox,
    zebra,
    zebraPort,
    async close() {
      await zebra.stop();
      await sandbox.close();
    },
  };
}

export type BenchStation = Omit<PrintBench, 'sandbox' | 'zebra'>;

/**
 * The station over a temp folder, on a sandbox and printer that may run in another process (the
 * sandbox is reached only through its addresses), with that printer as its default.
 */
export async function startBenchStation(sandbox: RunningSandbox, zebraPort: number): Promise<BenchStation> {
  const dataDir = mkdtempSync(join(tmpdir(), 'station-bench-'));
  const station = await composeStation({
    dataDir,
    host: 'web',
    version: 'bench',
    logger: createLogger((line) => process.stderr.write(`${line}\n`), { level: 'error' }),
    keyStore: noKeys,
    sandbox: attachEmbeddedSandbox(sandbox),
  });
  const call = async <T>(name: string, input: unknown): Promise<T> => {
    const result = await station.dispatcher.dispatch(name, input, { host: 'web' });
    if (!result.ok) throw new Error(`${name}: ${result.error.code} ${result.error.message}`);
    return result.value as T;
  };
  await station.services.sandboxReady();
  const added = await call<{ printer: { id: string } }>('printers.add', {
    name: 'Bench Zebra',
    address: { kind: 'network-zebra', host: '127.0.0.1', port: zebraPort },
    defaultForSingle: true,
    defaultForBundles: true,
    check: false,
  });
  const control = await fetch(`${sandbox.control.baseUrl}/environments/test/todays-orders`, { headers: { authorization: `Bearer ${sandbox.control.token}` } });
  const company = sandbox.environments.test.companies[0]?.name;
  const orders = ((await control.json()) as { orders: TodaysOrder[] }).orders.filter(
    (order) => order.companyName === company && order.zplAvailable && order.status !== 'cancelled',
  );
  return {
    zebraPort,
    station,
    printerId: added.printer.id,
    orders,
    call,
    async close() {
      await station.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function startPrintBench(options: { sandbox: SandboxOptions; zebra: VirtualZebraOptions }): Promise<PrintBench> {
  const service = await startBenchService(options);
  const station = await startBenchStation(service.sandbox, service.zebraPort);
  return {
    ...station,
    sandbox: service.sandbox,
    zebra: service.zebra,
    async close() {
      await station.close();
      await service.close();
    },
  };
}

/** Whole bundles of printable orders adding up to `labels` labels. */
export function bundlesFor(orders: TodaysOrder[], labels: number): string[] {
  const byBundle = new Map<string, TodaysOrder[]>();
  for (const order of orders) byBundle.set(order.bundleId, [...(byBundle.get(order.bundleId) ?? []), order]);
  const chosen: string[] = [];
  let total = 0;
  for (const [bundleId, members] of byBundle) {
    if (total + members.length > labels) continue;
    chosen.push(bundleId);
    total += members.length;
    if (total === labels) return chosen;
  }
  throw new Error(`only ${total} labels in whole bundles; start the sandbox with more orders`);
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] as number;
}
