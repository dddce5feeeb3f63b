/**
 * What the composition root takes and gives: the options every host builds a station with, and
 * the station and services they get back. composition.ts re-exports these for its callers.
 */
import type { EmbeddedSandbox } from '../embedded-sandbox';
import type { Dispatcher } from '../contract/dispatcher';
import type { EventBus } from '../contract/event-bus';
import type { BenchFloor, FloorOptions } from '../floor/bench-floor';
import type { KeyService } from '../keys/key-service';
import type { KeyStore } from '../keys/key-store';
import type { Logger } from '../logging/logger';
import type { StrayErrors } from '../logging/stray-errors';
import type { ManifestImporter } from '../orders/manifest-import';
import type { OrderIndex } from '../orders/order-index';
import type { OrderLookup } from '../orders/order-lookup';
import type { PickedFiles } from '../orders/picked-files';
import type { WebhookReceiver } from '../orders/webhook-receiver';
import type { PrintingOptions } from '../printing/runs/print-service';
import type { PrintingCore } from '../printing/printing-core';
import type { PrinterTransportsOptions } from '../printing/transports/printer-transports';
import type { ScaleService, ScaleServiceDeps } from '../scales/scale-service';
import type { DeliveryClients, DeliveryClientsDeps } from '../settings/delivery-clients';
import type { StationSettings } from '../settings/station-settings';
import type { StationDatabase, StoreEngine, StoreHealth, StoreHealthOptions, StorePasswords } from '../store';
import type { CreationLedger } from '../shipping/creation-ledger';
import type { RetentionSweep } from '../shipping/personal-data-retention';
import type { ShipService } from '../shipping/ship-service';
import type { ToShipOrders } from '../shipping/to-ship-orders';
import type { UploadService } from '../shipping/upload-service';
import type { PrintActivity } from '../updates/print-activity';

export interface StationOptions {
  /** Folder for the station's database and files (Electron's userData, or a temp folder in tests). */
  dataDir: string;
  host: 'electron' | 'web';
  version: string;
  logger: Logger;
  /** Defaults to the OS keychain under `keychainService`. */
  keyStore?: KeyStore;
  keychainService?: string;
  /** Whether the print queues are idle; the updater waits for it. Defaults to "nothing printing". */
  printActivity?: PrintActivity;
  /** The embedded sandbox; by default one started in this process on first use and stopped with the station. */
  sandbox?: EmbeddedSandbox;
  /** Delivery API client knobs (tests shorten retry budgets and timeouts). */
  clientOptions?: DeliveryClientsDeps['clientOptions'];
  /** How the spreadsheet upload waits after a 429 (tests record the waits); a timer by default. */
  uploadSleep?: (ms: number) => Promise<void>;
  /** Print queue timing and printer transport options (tests shorten polls and timeouts). */
  printing?: PrintingOptions & { transports?: Partial<PrinterTransportsOptions> };
  /** The desktop app's own file dialog for a manifest (the chosen path, or null); absent where there is none. */
  pickManifestFile?: () => Promise<string | null>;
  /** The clock webhook events are dated against (tests set it); the system clock by default. */
  webhookClock?: () => Date;
  /** The clock personal data's age is measured by (tests set it); the system clock by default. */
  retentionClock?: () => Date;
  /**
   * The store the order index, the journal, the printers, the ledgers and the webhook intake live
   * in, given by the caller (`webhooks serve --store`, tests; closed by whoever opened it). Without
   * it the station opens the one its `store` setting names: the bench's own file by default.
   */
  store?: StoreEngine;
  /** Where the shared store's password is kept; the OS keychain under `keychainService` by default. */
  storePasswords?: StorePasswords;
  /** How the shared store's health is watched (tests shorten the probe and inject timers). */
  storeHealth?: StoreHealthOptions;
  /** How often a bench on a shared store copies the orders changed there into its own file. Default 60 s. */
  orderCopyEveryMs?: number;
  /** How the bench's scale is read (tests shorten the stable window and the serial timing). */
  scale?: Pick<ScaleServiceDeps, 'stable' | 'serialTiming' | 'reconnectMs' | 'open'>;
  /** The lead's floor: when a silent bench reads as not answering, how often the bench reports (tests shorten them). */
  floor?: FloorOptions;
  /** The process's errors nobody caught, as the host counts them (logging/stray-errors.ts); the receiver's health check shows the count. */
  strayErrors?: StrayErrors;
}

export interface Station {
  readonly dispatcher: Dispatcher;
  readonly events: EventBus;
  readonly logger: Logger;
  readonly settings: StationSettings;
  /** The shell's updater installs only while this says every print queue is idle. */
  readonly printActivity: PrintActivity;
  /** What a host does itself beside the contract's calls (a file it picked, a server it runs in the foreground). */
  readonly host: StationHost;
  /** The core services, for tests and the desktop app's support bundle; every host's calls go through the dispatcher. */
  readonly services: StationServices;
  /**
   * Starts the listeners of a long-running host (the app, the web host): composing the station
   * binds no port, so a one-shot CLI command never contends for the webhook receiver's port.
   */
  start(listeners: StationListeners): Promise<void>;
  close(): Promise<void>;
}

/**
 * A host's own doors, beside the calls every host makes through the dispatcher: the files it
 * picks, and what the command line runs in the foreground until stopped.
 */
export interface StationHost {
  /** A file the host picked (the desktop app's dialog, a path typed at the command line): the single-use handle a call's `picked` source names. */
  pickFile(path: string): string;
  /** The webhook receiver, for `webhooks serve`, which opens it at the address it is given and serves until stopped. */
  readonly webhookReceiver: WebhookReceiver;
  /**
   * Starts the embedded sandbox and readies the station's sandbox environment on it (the desktop
   * app does at launch, the `sandbox` command before it serves); answers how many of the sandbox
   * environment's orders the index then holds.
   */
  readySandbox(): Promise<{ orders: number }>;
  /** The bench's scale, for `scale read`. */
  readonly scale: ScaleService;
  /** Resolves once this process's runner of an upload has stopped: the command line waits for it before it ends. */
  uploadSettled(uploadId: string): Promise<void>;
  /**
   * Follows the lead's floor without reporting this bench, for `floor --watch`: each change is a
   * `floor.bench` event. False on a bench's own file, where there is nothing to follow.
   */
  watchFloor(): Promise<boolean>;
}

export interface StationListeners {
  /** Resume the webhook receiver when its setting keeps it on. */
  webhooks: boolean;
  /** Open the bench's scale when one is set up, and keep reading it. */
  scale?: boolean;
}

export interface StationServices {
  readonly db: StationDatabase;
  /** The store the order index, the journal, the printers, the ledgers and the webhook intake live in. */
  readonly store: StoreEngine;
  /** Whether the shared store answers (always "local" on a bench's own file): printing asks it first. */
  readonly storeHealth: StoreHealth;
  readonly sandbox: EmbeddedSandbox;
  /**
   * Starts the embedded sandbox if needed; its day of orders goes into the index as it starts, and
   * its virtual Zebra is the sandbox environment's printer at this launch's port (see
   * printing/sandbox-printer.ts).
   */
  sandboxReady(): Promise<void>;
  readonly clients: DeliveryClients;
  readonly keys: KeyService;
  readonly orders: OrderIndex;
  readonly lookup: OrderLookup;
  readonly importer: ManifestImporter;
  /** Files the main process chose (its file dialog, a path typed at the CLI), behind single-use handles. */
  readonly pickedFiles: PickedFiles;
  readonly webhooks: WebhookReceiver;
  readonly printing: PrintingCore;
  /** This bench on the lead's floor: its report, the floor it follows, the lead's actions. */
  readonly floor: BenchFloor;
  readonly ledger: CreationLedger;
  readonly toShip: ToShipOrders;
  readonly ship: ShipService;
  readonly uploads: UploadService;
  readonly scale: ScaleService;
  /** Deletes orders to ship and uploads past the personal data retention (personal-data-retention.ts). */
  readonly retention: RetentionSweep;
}
