// Who the printer is: the identity a host reads through ~HI and SGD, and the values that belong
// to one physical printer (its serial number and label counter).
import { z } from 'zod';

// Model and firmware go into comma-separated ~HI fields: printable ASCII, no commas.
export const identityText = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[\x20-\x2b\x2d-\x7e]+$/, 'printable ASCII without commas');

/** A Zebra serial number as device.unique_id reports it, e.g. "D8J224512345". */
export const serialNumberSchema = z
  .string()
  .min(1)
  .max(32)
  .regex(/^[A-Za-z0-9-]+$/, 'letters, digits and dashes');

export const dpiSchema = z.number().int().min(100).max(600);
export const printWidthDotsSchema = z.number().int().min(1).max(9999);
/** Labels printed before the virtual printer was switched on for the first time. */
export const odometerSchema = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** Another printer at the same address (replaceWith, PUT /printers/:printer/identity). */
export const printerIdentityPatchSchema = z.strictObject({
  model: identityText.optional(),
  dpi: dpiSchema.optional(),
  printWidthDots: printWidthDotsSchema.optional(),
  serial: serialNumberSchema.optional(),
  odometerStart: odometerSchema.optional(),
});

export type PrinterIdentityPatch = z.input<typeof printerIdentityPatchSchema>;

/** The model a printer of this resolution reports when none is given. */
export const defaultModel = (dpi: number): string => `ZD421-${dpi}dpi`;

/**
 * A stable serial number for a printer that was given none: "VZ" and ten digits taken from its
 * name (FNV-1a), so two printers with different names tell themselves apart, run after run.
 */
export function defaultSerial(name: string, generation = 0): string {
  let hash = 0x811c9dc5;
  for (const char of `${name}#${generation}`) {
    hash ^= char.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `VZ${String(hash).padStart(10, '0')}`;
}

const two = (value: number): string => String(value).padStart(2, '0');

/** device.uptime as a Zebra answers it: "0 days 00 hours 02 mins 07 secs". */
export function formatUptime(milliseconds: number): string {
  const totalSeconds = Math.max(0, Math.floor(milliseconds / 1000));
  const days = Math.floor(totalSeconds / 86_400);
  const hours = Math.floor((totalSeconds % 86_400) / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  return `${days} days ${two(hours)} hours ${two(minutes)} mins ${two(seconds)} secs`;
}
