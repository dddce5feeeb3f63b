import { z } from 'zod';
import { KeyboardLayoutIdSchema } from '../keyboard/layouts';
import { EnvironmentSchema } from './app';
import { defineCall } from './define';

/** Environments that take an API key; the embedded sandbox has its own. */
export const KeyedEnvironmentSchema = z.enum(['test', 'live']);
export type KeyedEnvironment = z.infer<typeof KeyedEnvironmentSchema>;

/**
 * The name of a bench nobody has named yet. Kept as this fixed text in the journal (so every bench
 * and every language reads the same row), and worded in the screen's language wherever it is shown.
 */
export const defaultStationName = 'Packing bench';

export const StationNameSchema = z.string().trim().min(1, 'the station name should not be empty').max(80, 'the station name should be at most 80 characters');
export const OperatorSchema = z.string().trim().max(80, 'the operator name should be at most 80 characters');

/** Loopback names: plain http is allowed to these only (a local proxy or test server on this PC). */
export function isLoopbackHostname(hostname: string): boolean {
  // URL has already normalised the IPv4 spellings (0x7f.1, 2130706433) to dotted decimal.
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/** An environment's Delivery API address: https, or http on this PC only (a local proxy or sandbox). */
export const ApiBaseUrlSchema = z
  .string()
  .trim()
  .max(500)
  .refine((text) => {
    try {
      const url = new URL(text);
      if (url.username || url.password || url.search || url.hash || text.endsWith('?') || text.endsWith('#')) return false;
      if (url.protocol === 'https:') return true;
      return url.protocol === 'http:' && isLoopbackHostname(url.hostname);
    } catch {
      return false;
    }
  }, 'the API address should be an https:// URL (http:// only for this PC: localhost, 127.x.x.x or [::1]), without user, query or fragment');

/**
 * One spelling per address, so "https://API.example/v1/" and "https://api.example/v1" are the
 * same address and changing one into the other keeps the key bound to it.
 */
export function canonicalApiAddress(address: string): string {
  try {
    const url = new URL(address.trim());
    return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return address.trim();
  }
}

export const sameApiAddress = (a: string | null, b: string | null): boolean =>
  a !== null && b !== null && canonicalApiAddress(a) === canonicalApiAddress(b);

const ipv4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
/** Where the webhook receiver listens: this PC only by default, or every interface when a proxy forwards to it. */
export const ListenHostSchema = z.string().refine((host) => host === '::' || host === '::1' || ipv4.test(host), 'the listen address should be an IP address such as 127.0.0.1 or 0.0.0.0');

const ipv6 = /^[0-9a-fA-F:]*:[0-9a-fA-F:.]*$/;
/** An address range in CIDR notation (a bare address is one host). */
export const SourceRangeSchema = z.string().refine((range) => {
  const [address = '', prefix, ...rest] = range.split('/');
  if (rest.length > 0) return false;
  const max = ipv4.test(address) ? 32 : ipv6.test(address) && address.length <= 45 ? 128 : -1;
  return max > 0 && (prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= max));
}, 'a source should be an IP address or a CIDR range such as 203.0.113.0/24');

export const WebhookReceiverSettingsSchema = z.object({
  /** Off by default; webhooks.start and webhooks.stop switch it and remember the choice. */
  enabled: z.boolean(),
  host: ListenHostSchema,
  /** 0 picks a free port when the receiver starts. */
  port: z.number().int().min(0).max(65535),
  bodyLimitBytes: z.number().int().min(1024).max(1024 * 1024),
  /** Optional: only these source addresses (CIDR, e.g. 203.0.113.0/24) may post events; absent or empty, any. */
  allowedSources: z.array(SourceRangeSchema).max(64).optional(),
});
export type WebhookReceiverSettings = z.infer<typeof WebhookReceiverSettingsSchema>;

export const SettingsSchema = z.object({
  environment: EnvironmentSchema,
  stationName: z.string(),
  /** Who is working at the bench; recorded in the print journal. Empty until someone says. */
  operator: z.string(),
  apiBaseUrls: z.object({ test: z.string().nullable(), live: z.string().nullable() }),
  webhooks: WebhookReceiverSettingsSchema,
  /** The keyboard layout this bench's scanner types for (US at the factory): its keys are read through it. */
  scannerLayout: KeyboardLayoutIdSchema,
});
export type Settings = z.infer<typeof SettingsSchema>;

export const SettingsChangeSchema = z
  .object({
    environment: EnvironmentSchema.optional(),
    stationName: StationNameSchema.optional(),
    operator: OperatorSchema.optional(),
    apiBaseUrls: z.object({ test: ApiBaseUrlSchema.nullable().optional(), live: ApiBaseUrlSchema.nullable().optional() }).strict().optional(),
    webhooks: WebhookReceiverSettingsSchema.omit({ enabled: true }).partial().strict().optional(),
    scannerLayout: KeyboardLayoutIdSchema.optional(),
  })
  .strict();
export type SettingsChange = z.infer<typeof SettingsChangeSchema>;

export const SettingsChangeResultSchema = SettingsSchema.extend({
  /**
   * Environments whose API key this change removed from the keychain: a key is bound to the
   * address it was entered for, so a new address needs the key entered again.
   */
  forgottenKeys: z.array(KeyedEnvironmentSchema),
});
export type SettingsChangeResult = z.infer<typeof SettingsChangeResultSchema>;

export const settingsCalls = {
  'settings.get': defineCall(z.object({}).strict(), SettingsSchema),
  /**
   * Changes only the fields given; answers with every setting after the change. Changing an
   * environment's API address forgets that environment's key (listed in forgottenKeys).
   */
  'settings.set': defineCall(SettingsChangeSchema, SettingsChangeResultSchema),
};
