import { z } from 'zod';
import { OrientationSchema } from '../api/schemas';
import { ErrorCodeSchema, ErrorFactsSchema } from '../errors';
import { PrinterAddressSchema } from '../zebra/printer-address';
import { EnvironmentSchema } from './app';
import { defineCall, defineEvent } from './define';

export const PrinterIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'a printer id is letters, digits, - and _');
export const PrinterNameSchema = z.string().trim().min(1, 'give the printer a name').max(80, 'the printer name should be at most 80 characters');

/** Tuning kept with each printer. */
export const PrinterOptionsSchema = z.object({
  /**
   * Most formats of this station's labels allowed in the printer's buffer at once. Pause and
   * cancel take effect within this many labels; 3 keeps a Zebra busy without a gap.
   */
  maxFormatsInBuffer: z.number().int().min(1).max(50),
  /** How rasterised PDFs are sent: compressed ^GFA, or plain hex for printers that reject compression. */
  gfaEncoding: z.enum(['compressed', 'hex']),
  /** What the last check found (null until the printer was checked). */
  dpi: z.number().int().positive().nullable(),
  printWidthDots: z.number().int().positive().nullable(),
  model: z.string().nullable(),
  /** device.unique_id of the printer last found at the address: a different one is another printer. */
  serialNumber: z.string().nullable().default(null),
  checkedAt: z.string().nullable(),
  /** Plain sentences from the last check (wrong resolution, too narrow, not ZPL, …). */
  warnings: z.array(z.string()),
});
export type PrinterOptions = z.infer<typeof PrinterOptionsSchema>;

/**
 * How labels reach this printer, from what it said it is: the service's native 203-dpi ZPL (a
 * 203 dpi printer with a head of at least 104 mm, or one that cannot be asked); the order's PDF
 * rasterised to a ^GFA image at the printer's own resolution (300, 600 dpi, …); the PDF itself
 * (a PDF printer); or refused (a head narrower than the label).
 */
export const LabelRouteSchema = z.object({
  kind: z.enum(['native-zpl', 'raster', 'pdf', 'refused']),
  /** Dots per inch the labels are prepared for; null for a PDF printer. */
  dpi: z.number().int().nullable(),
  /** A plain sentence for the printer card. */
  message: z.string(),
});
export type LabelRouteData = z.infer<typeof LabelRouteSchema>;

export const PrinterSchema = z.object({
  id: PrinterIdSchema,
  environment: EnvironmentSchema,
  name: z.string(),
  address: PrinterAddressSchema,
  /** What the printer takes: ZPL (Zebras, raw queues) or PDF (a PDF queue). */
  format: z.enum(['zpl', 'pdf']),
  /** "the printer at 10.0.0.5:9100", "print queue "Zebra_ZD421"". */
  description: z.string(),
  /** The label orientation this printer is pinned to; every label fetched for it asks for it. */
  orientation: OrientationSchema,
  defaultForSingle: z.boolean(),
  defaultForBundles: z.boolean(),
  options: PrinterOptionsSchema,
  route: LabelRouteSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PrinterData = z.infer<typeof PrinterSchema>;

export const PrinterFaultSchema = z.object({
  kind: z.enum(['head-open', 'paper-out', 'ribbon-out', 'printer-error', 'paused', 'offline']),
  code: ErrorCodeSchema,
  message: z.string(),
  action: z.string(),
});
export type PrinterFaultData = z.infer<typeof PrinterFaultSchema>;

/** One word for the status area: the same words the screen's printer badge uses. */
export const PrinterStateSchema = z.enum(['ready', 'printing', 'paperOut', 'headOpen', 'paused', 'offline', 'error', 'unknown']);
export type PrinterStateName = z.infer<typeof PrinterStateSchema>;

/** The A6 label against the roll the printer reports (print width, label length), at its resolution. */
export const RollFitSchema = z.object({
  /** null: the printer did not say enough to tell. */
  fits: z.boolean().nullable(),
  issues: z.array(
    z.object({
      issue: z.enum(['too-narrow', 'too-short']),
      printerDots: z.number(),
      labelDots: z.number(),
      printerMm: z.number(),
      labelMm: z.number(),
    }),
  ),
  dpi: z.number().int().nullable(),
  printWidthDots: z.number().int().nullable(),
  labelLengthDots: z.number().int().nullable(),
});
export type RollFitData = z.infer<typeof RollFitSchema>;

/** A printhead fault a Zebra reports (~HS under or over temperature, ~HQES printhead errors). */
export const HeadFaultSchema = z.enum(['too-hot', 'too-cold', 'element-bad', 'thermistor-open', 'not-detected']);
export type HeadFaultData = z.infer<typeof HeadFaultSchema>;

export const PrinterStatusSchema = z.object({
  printerId: PrinterIdSchema,
  state: PrinterStateSchema,
  /** Whether the printer answered; false for queues that cannot be asked (then `faults` is empty). */
  answered: z.boolean(),
  /** Most urgent first; empty when the printer can print. */
  faults: z.array(PrinterFaultSchema),
  /** Formats in the printer's buffer (~HS), null when unknown. */
  formatsInBuffer: z.number().int().nullable(),
  /** Labels of this station on their way: queued, being sent, or in the printer's buffer. */
  labelsPending: z.number().int(),
  checkedAt: z.string(),
  /**
   * Where the answer comes from: `printer`, asked now; `queue`, a run of this station process is
   * printing on it and its queue's last answers say how it is (the printer is not asked again);
   * `run-elsewhere`, another station process (the app, a CLI command) is printing a run on it and
   * holds its connection (a printer that serves one connection at a time would not answer a second).
   */
  source: z.enum(['printer', 'queue', 'run-elsewhere']).default('printer'),
  /** The run that keeps the printer busy, when `source` is not `printer`. */
  busyWith: z
    .object({ runId: z.string(), kind: z.enum(['single', 'bundles', 'test', 'retry']), processId: z.number().int().nullable() })
    .nullable()
    .default(null),
  /**
   * The roll against the A6 label, from the printer's print width and label length, as read on the
   * connection open now (or on an earlier one while labels are on their way); null when never read.
   */
  roll: RollFitSchema.nullable().default(null),
  /** When `roll` was read. */
  rollReadAt: z.string().nullable().default(null),
  /** Printhead faults the printer reports now (~HS, ~HQES). */
  headFaults: z.array(HeadFaultSchema).default([]),
});
export type PrinterStatusData = z.infer<typeof PrinterStatusSchema>;

export const PrinterCheckSchema = z.object({
  /** False when the printer cannot be asked (an OS queue or a PDF printer). */
  checked: z.boolean(),
  /** Checked and nothing to warn about. */
  passed: z.boolean(),
  model: z.string().nullable(),
  firmware: z.string().nullable(),
  dpi: z.number().int().nullable(),
  printWidthDots: z.number().int().nullable(),
  /** `message` is English for logs and the CLI; the screen words `issue` with `facts`. */
  warnings: z.array(z.object({ issue: z.string(), message: z.string(), facts: ErrorFactsSchema.optional() })),
  /** Faults seen during the check (paper out, head open, …). */
  faults: z.array(PrinterFaultSchema),
  /** device.unique_id, null when the printer did not say. */
  serialNumber: z.string().nullable().default(null),
});
export type PrinterCheckData = z.infer<typeof PrinterCheckSchema>;

export const OsQueueSchema = z.object({
  name: z.string(),
  system: z.enum(['cups', 'windows']),
  state: z.enum(['idle', 'printing', 'disabled', 'unknown']),
  accepting: z.boolean().nullable(),
  isDefault: z.boolean(),
});

export const UsbDeviceSchema = z.object({
  serialNumber: z.string().nullable(),
  productId: z.number().int(),
  product: z.string().nullable(),
});
export type UsbDeviceData = z.infer<typeof UsbDeviceSchema>;

const tuning = {
  maxFormatsInBuffer: PrinterOptionsSchema.shape.maxFormatsInBuffer.optional(),
  gfaEncoding: PrinterOptionsSchema.shape.gfaEncoding.optional(),
};

export const PrinterAddInputSchema = z
  .object({
    name: PrinterNameSchema,
    address: PrinterAddressSchema,
    /** Default landscape, the service's default orientation. */
    orientation: OrientationSchema.optional(),
    defaultForSingle: z.boolean().optional(),
    defaultForBundles: z.boolean().optional(),
    /** Ask the printer what it is before saving (default true); false saves it without connecting. */
    check: z.boolean().optional(),
    ...tuning,
  })
  .strict();
export type PrinterAddInput = z.infer<typeof PrinterAddInputSchema>;

export const PrinterUpdateInputSchema = z
  .object({
    id: PrinterIdSchema,
    name: PrinterNameSchema.optional(),
    address: PrinterAddressSchema.optional(),
    orientation: OrientationSchema.optional(),
    defaultForSingle: z.boolean().optional(),
    defaultForBundles: z.boolean().optional(),
    ...tuning,
  })
  .strict();
export type PrinterUpdateInput = z.infer<typeof PrinterUpdateInputSchema>;

const byId = z.object({ id: PrinterIdSchema }).strict();

/** Printhead care from the printer's counters and status (docs/printing.md, "Printhead care"). */
export const HeadCareSchema = z.object({
  sinceCleanedInches: z.number().int().nullable(),
  headInches: z.number().int().nullable(),
  /** Time to clean it: a roll's length since the last cleaning, or the printer's own warning. */
  cleanNow: z.boolean(),
  replaceWarning: z.boolean(),
  faults: z.array(HeadFaultSchema),
});
export type HeadCareData = z.infer<typeof HeadCareSchema>;

export const MediaTypeSchema = z.enum(['direct', 'transfer']);
export const MediaTrackingSchema = z.enum(['gap', 'mark', 'continuous']);
export const ReprintSettingSchema = z.enum(['on', 'off', 'unknown']);

/** A printer's settings as it reports them (SGD getvar; ^HH where SGD does not say); null: it did not say. */
export const PrinterSettingsSchema = z.object({
  printerId: PrinterIdSchema,
  darkness: z.number().nullable(),
  speedIps: z.number().nullable(),
  mediaType: MediaTypeSchema.nullable(),
  tracking: MediaTrackingSchema.nullable(),
  printWidthDots: z.number().int().nullable(),
  labelLengthDots: z.number().int().nullable(),
  dpi: z.number().int().nullable(),
  reprintAfterError: ReprintSettingSchema,
  /** odometer.total_label_count. */
  labelCount: z.number().int().nullable(),
  /** Settings read from the configuration (^HH) because SGD did not say. */
  fromConfiguration: z.array(z.string()),
  roll: RollFitSchema,
  head: HeadCareSchema,
  readAt: z.string(),
});
export type PrinterSettingsData = z.infer<typeof PrinterSettingsSchema>;

const settingsChange = {
  darkness: z.number().int().min(0).max(30).optional(),
  speed: z.number().int().min(1).max(14).optional(),
  mediaType: MediaTypeSchema.optional(),
  tracking: MediaTrackingSchema.optional(),
  reprintAfterError: z.boolean().optional(),
};

export const PrinterSettingsChangeInputSchema = z
  .object({
    id: PrinterIdSchema,
    ...settingsChange,
    /** Also save them as the printer's power-on settings (^JUS): a separate, explicit choice. */
    save: z.boolean().optional(),
    /** The printhead was cleaned just now: its counter starts again (setvar odometer.headclean 0). */
    headCleaned: z.boolean().optional(),
    operator: z.string().trim().min(1).max(80).optional(),
  })
  .strict();

export const SettingChangeSchema = z.object({
  setting: z.enum(['darkness', 'speed', 'mediaType', 'tracking', 'reprintAfterError', 'save', 'headCleaned']),
  /** The bytes sent to the printer for it. */
  sent: z.string(),
  /** As the printer reported it before and after (null: not reported, or not a value). */
  before: z.union([z.string(), z.number(), z.null()]),
  after: z.union([z.string(), z.number(), z.null()]),
});
export type SettingChangeData = z.infer<typeof SettingChangeSchema>;

export const PrinterSettingsChangeSchema = z.object({
  changeId: z.number().int(),
  changes: z.array(SettingChangeSchema),
  saved: z.boolean(),
  before: PrinterSettingsSchema,
  after: PrinterSettingsSchema,
  operator: z.string(),
  at: z.string(),
});
export type PrinterSettingsChangeData = z.infer<typeof PrinterSettingsChangeSchema>;

export const SettingChangeRecordSchema = z.object({
  changeId: z.number().int(),
  printerId: PrinterIdSchema,
  printerName: z.string(),
  operator: z.string(),
  stationName: z.string(),
  at: z.string(),
  saved: z.boolean(),
  changes: z.array(SettingChangeSchema),
});
export type SettingChangeRecordData = z.infer<typeof SettingChangeRecordSchema>;

/** A printer a search found: a network Zebra that answered Zebra's discovery, or an OS print queue. */
export const DiscoveredPrinterSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('network-zebra'),
    /** The printer's own (system) name, else its model, else its address. */
    name: z.string(),
    model: z.string().nullable(),
    firmware: z.string().nullable(),
    serialNumber: z.string().nullable(),
    dpi: z.number().int().nullable(),
    host: z.string(),
    port: z.number().int(),
    /** The printer of this environment already at this address, if any. */
    addedAs: PrinterIdSchema.nullable(),
  }),
  z.object({
    kind: z.literal('os-queue'),
    name: z.string(),
    system: z.enum(['cups', 'windows']),
    state: z.enum(['idle', 'printing', 'disabled', 'unknown']),
    isDefault: z.boolean(),
    addedAs: PrinterIdSchema.nullable(),
  }),
]);
export type DiscoveredPrinterData = z.infer<typeof DiscoveredPrinterSchema>;

export const PrinterDiscoverInputSchema = z
  .object({
    /** The network to ask, e.g. 192.168.1.0/24 (at most a /16); absent: the networks this computer is on. */
    subnet: z.string().trim().max(18).optional(),
    /** Zebra's discovery port, 4201; another only where a relay or a test printer listens elsewhere. */
    port: z.number().int().min(1).max(65535).optional(),
    /** How long answers are collected (default 3 s). */
    timeoutMs: z.number().int().min(500).max(10_000).optional(),
  })
  .strict();

export const printersCalls = {
  /** The current environment's printers. */
  'printers.list': defineCall(z.object({}).strict(), z.object({ printers: z.array(PrinterSchema) })),
  /**
   * Saves a printer in the current environment. A network address is first asked ~HI only (a
   * bounded answer within 2 s); a Zebra is then checked (ZPL, resolution, print width, serial) and
   * its labels take the route that fits it (`route`). Errors: PRINTER_NOT_ZEBRA (something that is
   * not a Zebra answered), PRINTER_TOO_NARROW (a head narrower than A6); neither is saved. An
   * unreachable printer is saved with a warning (`unreachable`) and takes no role from another
   * printer. Roles are taken only when asked for (`defaultForSingle`, `defaultForBundles`); the
   * environment's first printer takes both.
   */
  'printers.add': defineCall(PrinterAddInputSchema, z.object({ printer: PrinterSchema, check: PrinterCheckSchema.nullable() })),
  /** Changes only the fields given. Making a printer the default for a role takes the role from the other. */
  'printers.update': defineCall(PrinterUpdateInputSchema, PrinterSchema),
  /**
   * Refused while the printer has a run that is not finished. The roles it had (on every bench)
   * go to the oldest printer left, so no bench prints to a printer that is gone.
   */
  'printers.remove': defineCall(byId, z.object({ removed: z.literal(true) })),
  /** Asks the printer now (~HS, ~HQES). Errors: PRINTER_NOT_FOUND. An unreachable printer is a status (offline), not an error. */
  'printers.status': defineCall(byId, PrinterStatusSchema),
  /** The add-time check again; the result is kept with the printer. */
  'printers.check': defineCall(byId, PrinterCheckSchema),
  /**
   * The printer's settings as it reports them: darkness, speed, media type and tracking, print
   * width, label length, reprint after error, label counter; whether the roll fits the A6 label;
   * printhead care. Errors: PRINTER_NOT_FOUND, PRINTER_OFFLINE, NOT_CONFIGURED (a printer that
   * cannot be asked), CONFLICT (subject printer-in-use: a run or a scan holds it now).
   */
  'printers.settings': defineCall(byId, PrinterSettingsSchema),
  /**
   * Changes only the settings named, with the printer's own commands, reads them back and journals
   * who changed what (`operator`, else the operator signed in, else the bench's name); `save` also
   * makes them the power-on settings (^JUS). Errors as printers.settings.
   */
  'printers.changeSettings': defineCall(PrinterSettingsChangeInputSchema, PrinterSettingsChangeSchema),
  /** Media calibration (~JC); answers once the printer is ready again, with the label length it measured. */
  'printers.calibrate': defineCall(byId, z.object({ labelLengthBefore: z.number().int().nullable(), labelLengthAfter: z.number().int().nullable(), roll: RollFitSchema, tookMs: z.number().int() })),
  /** Prints the printer's configuration label (~WC). */
  'printers.configLabel': defineCall(byId, z.object({ sent: z.literal('~WC') })),
  /** The journal of settings changed on a printer, newest first. */
  'printers.settingChanges': defineCall(z.object({ id: PrinterIdSchema, limit: z.number().int().min(1).max(500).optional() }).strict(), z.object({ changes: z.array(SettingChangeRecordSchema) })),
  /**
   * Prints a small test label through the printer's queue (recorded in the journal); with
   * `label: 'scanner-check'`, the scanner check barcode of Setup › Scanner instead.
   */
  'printers.test': defineCall(
    byId.extend({ label: z.enum(['printer', 'scanner-check']).optional() }).strict(),
    z.object({ runId: z.string(), entryId: z.number().int(), barcode: z.string().nullable() }),
  ),
  /** The print queues the OS has, for the "add printer" form. */
  'printers.osQueues': defineCall(z.object({}).strict(), z.object({ queues: z.array(OsQueueSchema) })),
  /** Zebra printers plugged in by USB, for the "add printer" form; empty when there are none or no USB access. */
  'printers.usbDevices': defineCall(z.object({}).strict(), z.object({ devices: z.array(UsbDeviceSchema) })),
  /**
   * Searches for printers: network Zebras on the chosen network (Zebra's UDP discovery, bounded in
   * time, never beyond that network) and the OS's print queues. Each is added with printers.add.
   * Errors: INVALID_INPUT (facts: subject subnet or subnet-too-wide, value).
   */
  'printers.discover': defineCall(PrinterDiscoverInputSchema, z.object({ subnets: z.array(z.string()), printers: z.array(DiscoveredPrinterSchema) })),
};

export const printersEvents = {
  /** The roll a printer holds was read (on a new connection, a settings read, a calibration). */
  'printers.roll': defineEvent(z.object({ printerId: PrinterIdSchema, roll: RollFitSchema, readAt: z.string() })),
  /** A printer's state changed as the print queue saw it (fault, cleared, printing, idle). */
  'printers.state': defineEvent(
    z.object({
      printerId: PrinterIdSchema,
      state: PrinterStateSchema,
      fault: PrinterFaultSchema.nullable(),
      labelsPending: z.number().int(),
      at: z.string(),
    }),
  ),
};
