/**
 * The station's embedded default: the sandbox (a local Delivery API, its operator controls and a
 * virtual Zebra) started inside the station's own process on first use. This is the only module
 * of src/main that imports src/sandbox; everything else sees the narrow interface below.
 *
 * The station's 'sandbox' environment is the sandbox's test environment, working as its first
 * seeded company (Noordwind Webwinkel): that company's key, locations and day of orders.
 */
import { request } from 'node:http';
import { z } from 'zod';
import type { RunningSandbox, SandboxOptions } from '../sandbox/index';
import { OrderStatusSchema } from '../shared/api/schemas';
import { StationError } from '../shared/errors';
import type { SandboxApi } from './settings/delivery-clients';
import { errorText } from '../shared/error-text';

export type { RunningSandbox, SandboxOptions } from '../sandbox/index';

/** One of the sandbox's seeded orders for today, as the station imports it. */
export const SandboxOrderSchema = z.object({
  orderRef: z.string(),
  orderId: z.string().min(1),
  barcode: z.string(),
  bundleId: z.string(),
  status: OrderStatusSchema,
  companyName: z.string(),
  deliveryName: z.string(),
  /** False for a carrier that supplies PDF labels only: such an order prints on a Zebra as an image. */
  zplAvailable: z.boolean(),
});
export type SandboxOrder = z.infer<typeof SandboxOrderSchema>;

const TodaysOrdersSchema = z.object({ orders: z.array(z.looseObject(SandboxOrderSchema.shape)) });

/** One label the virtual Zebra printed, as its control API lists it. */
export const SandboxPrintedLabelSchema = z.object({
  index: z.number().int().nonnegative(),
  zpl: z.string(),
  printedAt: z.iso.datetime(),
});
const PrintedLabelsSchema = z.object({ labels: z.array(z.looseObject(SandboxPrintedLabelSchema.shape)) });
const WebhookRegistrationSchema = z.looseObject({ id: z.string().min(1) });

/** Where the embedded sandbox's virtual Zebra listens. */
export interface SandboxPrinter {
  name: string;
  host: string;
  port: number;
  /** Where it answers Zebra's network discovery (a free port on loopback), so "Find printers" finds it. */
  discoveryPort: number;
}

export interface EmbeddedSandbox {
  /** Starts the sandbox on first call; later calls get the same one. */
  start(): Promise<RunningSandbox>;
  /** Address and key of the station's company in the sandbox's test environment. */
  api(): Promise<SandboxApi & { companyName: string; locationIds: string[] }>;
  /** The station company's seeded orders for today, with their current status. */
  todaysOrders(): Promise<SandboxOrder[]>;
  /** The virtual Zebra printers it runs (none when started with `printers: 0`). */
  printers(): Promise<SandboxPrinter[]>;
  /** Everything a virtual Zebra (by its place in `printers()`) printed since it started, oldest first. */
  printedLabels(printer: number): Promise<{ index: number; zpl: string; printedAt: number }[]>;
  /** Registers a webhook URL for the station's company (every status); resolves to the registration's id. */
  registerWebhook(url: string): Promise<string>;
  /** Removes a registration made with registerWebhook. */
  unregisterWebhook(id: string): Promise<void>;
  isRunning(): boolean;
  /** Stops the sandbox if this object started it. */
  close(): Promise<void>;
}

/** The sandbox started on first use in this process, with these options (loopback, free ports by default). */
export function createEmbeddedSandbox(options: SandboxOptions = {}): EmbeddedSandbox {
  let starting: Promise<RunningSandbox> | null = null;
  let running: RunningSandbox | null = null;
  const start = () => {
    // Loaded on first use: a station on the test or live service never loads the sandbox's code
    // (hundreds of modules: PDF and spreadsheet writers), which every start would otherwise read.
    starting ??= import('../sandbox/index').then(({ startSandbox }) => startSandbox(options)).then(
      (sandbox) => (running = sandbox),
      (error: unknown) => {
        starting = null;
        throw new StationError('NOT_CONFIGURED', `The embedded sandbox could not start: ${errorText(error)}`, undefined, { cause: error });
      },
    );
    return starting;
  };
  return embeddedSandboxOver(start, () => running !== null, async () => {
    const current = starting;
    starting = null;
    running = null;
    if (current) await (await current.catch(() => null))?.close();
  });
}

/** A sandbox someone else started and will stop (tests share one between stations). */
export function attachEmbeddedSandbox(sandbox: RunningSandbox): EmbeddedSandbox {
  return embeddedSandboxOver(async () => sandbox, () => true, async () => undefined);
}

function embeddedSandboxOver(start: () => Promise<RunningSandbox>, isRunning: () => boolean, close: () => Promise<void>): EmbeddedSandbox {
  const company = async () => {
    const sandbox = await start();
    const first = sandbox.environments.test.companies[0];
    if (!first) throw new StationError('NOT_CONFIGURED', 'The embedded sandbox has no company to work as.');
    return { sandbox, company: first };
  };
  const control = async (path: string, init: { method?: string; body?: unknown } = {}): Promise<unknown> => {
    const { sandbox } = await company();
    const response = await exchange(`${sandbox.control.baseUrl}${path}`, {
      method: init.method ?? 'GET',
      headers: { authorization: `Bearer ${sandbox.control.token}`, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    if (response.status < 200 || response.status > 299) throw new StationError('INTERNAL', `The embedded sandbox refused ${path} (HTTP ${response.status}).`);
    return response.json;
  };
  return {
    start,
    async api() {
      const { sandbox, company: first } = await company();
      return { baseUrl: sandbox.environments.test.baseUrl, apiKey: first.apiKey, companyName: first.name, locationIds: first.locationIds };
    },
    async todaysOrders() {
      const { company: first } = await company();
      const parsed = TodaysOrdersSchema.safeParse(await control('/environments/test/todays-orders'));
      if (!parsed.success) throw new StationError('INTERNAL', 'The embedded sandbox listed today\'s orders in an unexpected shape.');
      return parsed.data.orders.filter((order) => order.companyName === first.name).map((order) => SandboxOrderSchema.parse(order));
    },
    async printers() {
      const { sandbox } = await company();
      return sandbox.printers.map((printer) => ({ name: printer.name, host: printer.host, port: printer.port, discoveryPort: printer.discoveryPort }));
    },
    async printedLabels(printer) {
      const parsed = PrintedLabelsSchema.safeParse(await control(`/printers/${printer}/printed`));
      if (!parsed.success) throw new StationError('INTERNAL', 'The embedded sandbox listed its printed labels in an unexpected shape.');
      return parsed.data.labels.map((label) => ({ index: label.index, zpl: label.zpl, printedAt: Date.parse(label.printedAt) }));
    },
    async registerWebhook(url) {
      const { company: first } = await company();
      const parsed = WebhookRegistrationSchema.safeParse(await control('/environments/test/webhooks', { method: 'POST', body: { company: first.name, url } }));
      if (!parsed.success) throw new StationError('INTERNAL', 'The embedded sandbox answered a webhook registration in an unexpected shape.');
      return parsed.data.id;
    },
    async unregisterWebhook(id) {
      await control(`/environments/test/webhooks/${encodeURIComponent(id)}`, { method: 'DELETE' });
    },
    isRunning,
    close,
  };
}

/**
 * One exchange with the sandbox's control API on loopback, its answer parsed as JSON (null when it
 * is not). node:http rather than fetch: the station's first fetch loads Node's own copy of undici,
 * about 0.1 s of CPU for a few local calls.
 */
function exchange(url: string, init: { method: string; headers: Record<string, string>; body: string | undefined }): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const sent = request(url, { method: init.method, headers: init.headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('error', reject);
      answer.on('end', () => {
        let json: unknown = null;
        try {
          json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          // Not JSON: the caller judges the status alone.
        }
        resolve({ status: answer.statusCode ?? 0, json });
      });
    });
    sent.on('error', reject);
    sent.end(init.body);
  });
}
