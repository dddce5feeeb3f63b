/**
 * Runs station-child.ts with a config and kills it with SIGKILL as soon as it reports a line
 * starting with `line` (for example "scan-run " or "scan-sent "): a station gone at that moment.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { RunningSandbox } from '../../../src/sandbox';
import { waitUntil } from '../../support/wait-until';
import type { TodaysOrder } from '../printing-queue/support';
import { childScript } from '../../support/child-scripts';

export async function killStationChildAt(config: unknown, line: string, what: string, timeoutMs?: number): Promise<void> {
  const child = spawn(process.execPath, [childScript('test/integration/printing-crash/station-child.ts'), JSON.stringify(config)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const lines: string[] = [];
  createInterface({ input: child.stdout }).on('line', (text) => lines.push(text));
  try {
    await waitUntil(() => lines.some((text) => text.startsWith(line)), what, timeoutMs);
  } finally {
    child.kill('SIGKILL');
    await exited;
  }
}

/** The child's config for one scan of `order` on the sandbox's test environment, printing to the virtual Zebra at `printerPort`. */
export function oneScanConfig(sandbox: RunningSandbox, dataDir: string, printerPort: number, order: TodaysOrder) {
  return {
    dataDir,
    baseUrl: sandbox.environments.test.baseUrl,
    apiKey: sandbox.environments.test.companies[0]?.apiKey ?? '',
    printerPort,
    bundleIds: [],
    orders: [{ orderId: order.orderId, orderRef: order.orderRef, barcode: order.barcode, bundleId: order.bundleId, status: order.status }],
    scan: order.orderRef,
  };
}
