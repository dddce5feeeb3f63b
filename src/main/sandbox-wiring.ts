/**
 * How the embedded sandbox joins the station: started once on first use, its day of orders
 * indexed as it starts, its webhooks pointed at this station's receiver, and its virtual Zebra
 * saved as the sandbox environment's printer at this launch's port.
 */
import type { Environment } from '../shared/contract/app';
import type { EmbeddedSandbox } from './embedded-sandbox';
import type { Logger } from './logging/logger';
import type { OrderIndex } from './orders/order-index';
import { seedSandboxOrders } from './orders/sandbox-seed';
import type { SandboxWebhookLink } from './orders/sandbox-webhooks';
import type { SandboxPrinterSync } from './printing/sandbox-printer';

export interface SandboxWiringDeps {
  sandbox: EmbeddedSandbox;
  orders: OrderIndex;
  logger: Logger;
}

/**
 * The parts built after the delivery clients (the printers and the webhook receiver depend on
 * them, and the clients reach the sandbox through this wiring), handed over in one explicit step.
 */
export interface SandboxAttachments {
  printer: SandboxPrinterSync;
  webhookLink: SandboxWebhookLink;
}

export interface SandboxWiring {
  /** The sandbox started (once; a failed start is tried again on the next use) and its orders indexed. */
  started(): Promise<void>;
  /** Started, and its virtual Zebra (if it runs one) saved as the printer at this launch's port. */
  ready(): Promise<void>;
  /** Readies the sandbox when the given environment is the sandbox; nothing otherwise. */
  readyFor(environment: Environment): Promise<void>;
  attach(parts: SandboxAttachments): void;
  /**
   * Ids of today's sandbox orders a first scan prints as ZPL (the service knows them and their
   * carrier's label is ZPL, not a PDF-only one); null before the sandbox started.
   */
  zplOrderIds(): ReadonlySet<string> | null;
}

export function createSandboxWiring(deps: SandboxWiringDeps): SandboxWiring {
  const { sandbox, orders, logger } = deps;
  let attached: SandboxAttachments | null = null;
  let starting: Promise<void> | null = null;
  let zplOrderIds: ReadonlySet<string> | null = null;

  const started = (): Promise<void> =>
    (starting ??= sandbox
      .todaysOrders()
      .then(async (seeded) => {
        await seedSandboxOrders(orders, seeded);
        zplOrderIds = new Set(seeded.filter((order) => order.zplAvailable).map((order) => order.orderId));
        logger.info('embedded sandbox ready', { orders: seeded.length });
        await attached?.webhookLink.sandboxStarted();
      })
      .catch((error: unknown) => {
        starting = null;
        throw error;
      }));

  const ready = async (): Promise<void> => {
    await started();
    const [virtualZebra] = await sandbox.printers();
    if (virtualZebra) await attached?.printer.sync({ host: virtualZebra.host, port: virtualZebra.port });
  };

  return {
    started,
    ready,
    // A CLI command next to the app runs a sandbox of its own and points the row at its printer;
    // readying before each use keeps this process printing to the printer it runs.
    readyFor: async (environment) => {
      if (environment === 'sandbox') await ready();
    },
    zplOrderIds: () => zplOrderIds,
    attach(parts) {
      if (attached) throw new Error('The sandbox wiring is attached once, by the composition root.');
      attached = parts;
    },
  };
}
