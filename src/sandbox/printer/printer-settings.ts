// Settings and fault knobs of a virtual Zebra, as zod schemas: the same shapes arrive as
// constructor options, from the sandbox's command line and through the control HTTP API.
import { z } from 'zod';
import {
  defaultModel,
  defaultSerial,
  dpiSchema,
  identityText,
  odometerSchema,
  printWidthDotsSchema,
  serialNumberSchema,
} from './printer-identity';

/** An A6 roll's labels, 148 mm, in dots at the printer's resolution (8 dots per mm at 203 dpi). */
const a6LengthDots = (dpi: number): number => 148 * Math.round(dpi / 25.4);

const KIB = 1024;
const MIB = 1024 * KIB;

export const printerFaultsSchema = z.strictObject({
  /** No media: printing stops (the label in progress is reprinted later), ~HS b=1, ~HQES bit 0x1. */
  paperOut: z.boolean(),
  /** Paper runs out after this many more labels; 0 means now; null means never. */
  paperOutAfterLabels: z.number().int().min(0).nullable(),
  /** Printhead open: printing stops, ~HS o=1, ~HQES bit 0x4. */
  headOpen: z.boolean(),
  /** Paused (pause key, ~PP): the label in progress finishes, then printing waits; ~HS c=1. */
  paused: z.boolean(),
  /** Ribbon out: printing stops, ~HS p=1, ~HQES bit 0x2. */
  ribbonOut: z.boolean(),
  /** Stop listening: new connections get "connection refused"; open connections stay. */
  refuseConnections: z.boolean(),
  /**
   * Reset the connection once this many bytes (counted from its ^XA) of the next format have
   * arrived. Fires once, then clears itself; the cut format is discarded.
   */
  dropConnectionAfterBytes: z.number().int().min(1).nullable(),
  /** Read status queries (~HS, ~HQ, ~HI, getvar) but never answer them. */
  ignoreStatusQueries: z.boolean(),
  /**
   * Newer firmware: no answer to ~HS (nor SGD device.host_status) while media is out, the ribbon
   * is out or the head is open; ~HQES, ~HI and other getvar still answer.
   */
  silentHostStatusInFaults: z.boolean(),
  /**
   * Serve one connection at a time: a connection opened while another is open is accepted but
   * not read (its bytes wait in TCP, its questions go unanswered) until the ones before it close.
   */
  oneConnectionAtATime: z.boolean(),
  /** The printhead is too hot: printing holds after the label in progress; ~HS l=1, ~HQES bit 0x10. */
  headTooHot: z.boolean(),
  /** The printhead is too cold: ~HS k=1; printing goes on. */
  headTooCold: z.boolean(),
  /** A printhead element is bad: ~HQES bit 0x40; printing goes on (with a white line, on a real one). */
  headElementBad: z.boolean(),
});

export type PrinterFaults = z.infer<typeof printerFaultsSchema>;

/** A change to some of the faults; the ones left out keep their value. */
export const printerFaultsPatchSchema = printerFaultsSchema.partial();
export type PrinterFaultsPatch = z.infer<typeof printerFaultsPatchSchema>;

export const noFaults = (): PrinterFaults => ({
  paperOut: false,
  paperOutAfterLabels: null,
  headOpen: false,
  paused: false,
  ribbonOut: false,
  refuseConnections: false,
  dropConnectionAfterBytes: null,
  ignoreStatusQueries: false,
  silentHostStatusInFaults: false,
  oneConnectionAtATime: false,
  headTooHot: false,
  headTooCold: false,
  headElementBad: false,
});

/** Print speed: how many labels leave the printer per second. */
export const labelsPerSecondSchema = z.number().positive().max(10_000);

export const virtualZebraOptionsSchema = z
  .strictObject({
    name: z.string().min(1).max(100).default('Virtual Zebra'),
    labelsPerSecond: labelsPerSecondSchema.default(1),
    /** Receive buffer capacity; when formats fill it the printer stops reading its sockets. */
    receiveBufferBytes: z.number().int().min(KIB).max(256 * MIB).default(64 * KIB),
    /** An unterminated format (^XA without ^XZ) longer than this is thrown away. */
    maxFormatBytes: z.number().int().min(64).max(256 * MIB).default(2 * MIB),
    printWidthDots: printWidthDotsSchema.default(832),
    /** Label length reported by ~HS until a format with ^LL has printed; by default an A6 roll, 148 mm at the printer's dots per mm (1184 at 203 dpi). */
    labelLengthDots: z.number().int().min(1).max(9999).optional(),
    dpi: dpiSchema.default(203),
    /** ~HI model; defaults to "ZD421-<dpi>dpi". */
    model: identityText.optional(),
    /** device.unique_id; defaults to "VZ" and ten digits derived from the name. */
    serial: serialNumberSchema.optional(),
    /** odometer.total_label_count before the first label printed here. */
    odometerStart: odometerSchema.default(0),
    firmware: identityText.default('V84.20.18Z'),
    memoryKb: z.number().int().min(1).max(10_000_000).default(8176),
    /** Thermal transfer (ribbon) mode as it leaves the factory (^MT, ezpl.print_method), reported in ~HS string 2. */
    thermalTransfer: z.boolean().default(true),
    /**
     * What odometer.total_label_count counts of a label a fault cut short: `every-copy` counts the
     * cut copy and the reprint, `whole-labels` only labels that came out whole. Zebra does not
     * document which, so the station must not depend on it (docs/virtual-zebra.md).
     */
    labelCounter: z.enum(['every-copy', 'whole-labels']).default('every-copy'),
    /** Blank labels ~JC feeds while it measures the media (a ZD421 feeds one to three). */
    calibrationLabels: z.number().int().min(1).max(10).default(2),
    /** Length of media run through since the printhead was last cleaned, in inches, when the printer is switched on first. */
    headCleanInchesStart: z.number().int().min(0).max(100_000_000).default(0),
    /** Length of media run through this printhead, in inches, when the printer is switched on first. */
    headNewInchesStart: z.number().int().min(0).max(100_000_000).default(0),
    /** Printed labels kept for printed() and renderPng(); older ones are forgotten. */
    recordLimit: z.number().int().min(1).max(1_000_000).default(10_000),
    faults: printerFaultsPatchSchema.default({}),
  })
  .transform((options) => ({
    ...options,
    labelLengthDots: options.labelLengthDots ?? a6LengthDots(options.dpi),
    model: options.model ?? defaultModel(options.dpi),
    serial: options.serial ?? defaultSerial(options.name),
  }));

/**
 * Constructor options: the JSON settings above, and the clock (epoch milliseconds) the printer
 * reads for its power-on time and timestamps, so tests can move time without waiting.
 */
export type VirtualZebraOptions = z.input<typeof virtualZebraOptionsSchema> & { now?: () => number };
export type VirtualZebraSettings = z.output<typeof virtualZebraOptionsSchema>;

export const listenOptionsSchema = z.strictObject({
  host: z.string().min(1).default('127.0.0.1'),
  port: z.number().int().min(0).max(65_535).default(0),
});

export type ListenOptions = z.input<typeof listenOptionsSchema>;
