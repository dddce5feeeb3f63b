/**
 * The Delivery API sandbox as a library: startSandbox() starts the public API (test and live),
 * the operator control API and the virtual Zebra printers, all on loopback, and returns the same
 * description the CLI prints as its first line, plus close().
 */
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApiServer } from './api/server';
import { createControlServer } from './control/server';
import { createLabelDocuments } from './label-documents';
import { SandboxOptionsSchema, seedSizes, type ResolvedSandboxOptions, type SandboxOptions } from './options';
import { VirtualZebra, type VirtualZebraOptions } from './printer/virtual-zebra';
import { createRandom } from './random';
import { applySettingsPatch, defaultSettings } from './settings';
import { createWebhookDispatcher } from './webhooks/dispatcher';
import { environmentNames, type EnvironmentName } from './world/types';
import { World } from './world/world';

export type { SandboxOptions } from './options';
export type { Settings, FaultSettings, RateLimitSettings, WebhookSettings } from './settings';
export type { TodaysOrder } from './world/world';

export interface SandboxCompany {
  name: string;
  apiKey: string;
  locationIds: string[];
}

export interface SandboxEnvironment {
  baseUrl: string;
  companies: SandboxCompany[];
  revokedKey: string;
}

export interface SandboxDescription {
  environments: Record<EnvironmentName, SandboxEnvironment>;
  /** Each virtual Zebra: its raw printing port, and the port it answers Zebra's network discovery on (4201 on a real printer). */
  printers: { name: string; host: string; port: number; discoveryPort: number }[];
  control: { baseUrl: string; token: string };
}

export interface RunningSandbox extends SandboxDescription {
  /** Stops the printers, the servers and webhook deliveries; resolves when every port is closed. */
  close(): Promise<void>;
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

const urlHost = (host: string) => (host.includes(':') ? `[${host}]` : host);

export async function startSandbox(input: SandboxOptions = {}): Promise<RunningSandbox> {
  const options = SandboxOptionsSchema.parse(input);
  const size = seedSizes[options.seedSize];
  const settings = applySettingsPatch(defaultSettings(), {
    faults: options.faults,
    rateLimit: options.rateLimit,
    webhooks: options.webhooks,
    ...(options.bodyLimitBytes !== undefined ? { bodyLimitBytes: options.bodyLimitBytes } : {}),
  });
  const token = options.controlToken ?? randomBytes(24).toString('base64url');
  const runtimeRandom = createRandom(`${options.seed}/runtime`);
  const dispatcher = createWebhookDispatcher({ settings: () => settings.webhooks, random: runtimeRandom.fork('webhooks') });
  const labels = createLabelDocuments();
  let world: World | undefined;
  const currentWorld = () => {
    if (!world) throw new Error('The sandbox is still starting');
    return world;
  };

  const api = createApiServer({ world: currentWorld, settings, labels, random: runtimeRandom.fork('faults'), now: Date.now });
  const printers: VirtualZebra[] = [];
  const discoveryPorts: number[] = [];
  let control: Server | undefined;
  const close = async () => {
    await Promise.all([closeServer(api.server), control ? closeServer(control) : Promise.resolve(), ...printers.map((printer) => printer.stop())]);
    await dispatcher.close();
  };

  try {
    const apiPort = await listen(api.server, options.port, options.host);
    const origin = `http://${urlHost(options.host)}:${apiPort}`;
    world = new World({
      seed: options.seed,
      orders: options.orders ?? size.orders,
      pickupPoints: options.pickupPoints ?? size.pickupPoints,
      trackingBase: `${origin}/track`,
      defaultPrintSize: 'A6',
      now: Date.now,
      dispatcher,
    });

    for (let i = 0; i < options.printers; i++) {
      const printer = new VirtualZebra({
        name: options.printers === 1 ? 'Virtual Zebra' : `Virtual Zebra ${i + 1}`,
        ...(options.printerLabelsPerSecond !== undefined ? { labelsPerSecond: options.printerLabelsPerSecond } : {}),
        ...printerIdentityOptions(options, i),
      });
      printers.push(printer);
      await printer.start({ host: options.host, port: options.printerPorts[i] ?? 0 });
      // On a free port of its own, so stations and sandboxes side by side on one computer never collide.
      discoveryPorts.push(await printer.answerDiscovery({ host: options.host, port: 0 }));
    }

    const describe = (): SandboxDescription => {
      const environments = {} as Record<EnvironmentName, SandboxEnvironment>;
      for (const name of environmentNames) {
        // The accounts alone: an environment's orders are made when it is first used.
        const env = currentWorld().accountsOf(name);
        const companies = [...env.companies.values()].map((company) => {
          const key = [...env.keys.values()].find((record) => !record.revoked && record.companyIds.length === 1 && record.companyIds[0] === company.id);
          return { name: company.name, apiKey: key?.key ?? '', locationIds: company.locationIds.map(String) };
        });
        environments[name] = { baseUrl: `${origin}/${name}`, companies, revokedKey: env.revokedKey };
      }
      return {
        environments,
        printers: printers.map((printer, index) => ({ name: printer.name, host: options.host, port: printer.boundPort ?? 0, discoveryPort: discoveryPorts[index] ?? 0 })),
        control: { baseUrl: `http://${urlHost(options.host)}:${controlPort}`, token },
      };
    };

    control = createControlServer({
      token,
      world: currentWorld,
      settings,
      dispatcher,
      printers,
      labels,
      describe,
      random: runtimeRandom.fork('control'),
      reset: (keepWebhooks) => {
        currentWorld().reset(keepWebhooks);
        labels.clear();
        api.rateLimiter.reset();
      },
    });
    const controlPort = await listen(control, options.controlPort, options.host);
    return { ...describe(), close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The printer options of the sandbox that apply to its i-th virtual printer. */
function printerIdentityOptions(options: ResolvedSandboxOptions, index: number): Partial<VirtualZebraOptions> {
  const picked: Partial<VirtualZebraOptions> = {
    dpi: options.printerDpi,
    printWidthDots: options.printerWidthDots,
    model: options.printerModel,
    serial: options.printerSerials[index],
    odometerStart: options.printerOdometerStart,
    receiveBufferBytes: options.printerReceiveBufferBytes,
  };
  return Object.fromEntries(Object.entries(picked).filter(([, value]) => value !== undefined));
}
