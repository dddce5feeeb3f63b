/**
 * Run-time knobs of the sandbox: injected faults, the rate limit, webhook delivery behaviour and
 * the body size ceiling. Settable at start (startSandbox, CLI) and at run time (control API).
 */
import { z } from 'zod';

export const labelNotReadyStatuses = [404, 409, 425, 503] as const;

const rate = z.number().min(0).max(1);

export const FaultSettingsSchema = z.object({
  /** Added to every public API answer. */
  latencyMs: z.number().int().min(0).max(60_000),
  /** Up to this much more, drawn per request. */
  latencyJitterMs: z.number().int().min(0).max(60_000),
  /** Share of requests answered 500/502/503 before they are processed. */
  errorRate: rate,
  /** Share of requests answered 429 (Retry-After: 1) before they are processed. */
  rateLimitRate: rate,
  /** Share of requests whose connection is dropped without an answer. */
  dropRate: rate,
  /** Drop before processing, after processing (the change happened, the answer is lost) or either at random. */
  dropMode: z.enum(['before', 'after', 'either']),
  /** How long after creation a label is "not generated yet". */
  labelDelayMs: z.number().int().min(0).max(600_000),
  /** The status of that answer (the spec does not show it). */
  labelNotReadyStatus: z.union(labelNotReadyStatuses.map((status) => z.literal(status))),
  /** Which requests latency, errors and drops apply to: every one, or only order creation (POST /orders). */
  faultScope: z.enum(['all', 'create-order']),
});
export type FaultSettings = z.infer<typeof FaultSettingsSchema>;

export const RateLimitSettingsSchema = z.object({
  /** Sustained requests per second per API key; 0 switches the limit off. */
  requestsPerSecond: z.number().min(0).max(100_000),
  /** Requests a key may make at once after being idle. */
  burst: z.number().int().min(1).max(1_000_000),
});
export type RateLimitSettings = z.infer<typeof RateLimitSettingsSchema>;

export const WebhookSettingsSchema = z.object({
  /** Share of events delivered twice. */
  duplicateRate: rate,
  /** Hold events for a short window and deliver them newest first. */
  outOfOrder: z.boolean(),
  outOfOrderWindowMs: z.number().int().min(1).max(60_000),
  /** Waits before the 2nd, 3rd, ... attempt after a failed delivery. */
  retryDelaysMs: z.array(z.number().int().min(0).max(3_600_000)).max(20),
  /** A receiver that has not answered within this is a failed attempt. */
  timeoutMs: z.number().int().min(100).max(120_000),
  /** Deliveries in flight at once per URL. */
  concurrency: z.number().int().min(1).max(256),
});
export type WebhookSettings = z.infer<typeof WebhookSettingsSchema>;

export const SettingsSchema = z.object({
  faults: FaultSettingsSchema,
  rateLimit: RateLimitSettingsSchema,
  webhooks: WebhookSettingsSchema,
  /** Request bodies above this size get 413. */
  bodyLimitBytes: z.number().int().min(1024).max(100 * 1024 * 1024),
});
export type Settings = z.infer<typeof SettingsSchema>;

export const SettingsPatchSchema = z
  .object({
    faults: FaultSettingsSchema.partial(),
    rateLimit: RateLimitSettingsSchema.partial(),
    webhooks: WebhookSettingsSchema.partial(),
    bodyLimitBytes: SettingsSchema.shape.bodyLimitBytes,
  })
  .partial()
  .strict();
export type SettingsPatch = z.infer<typeof SettingsPatchSchema>;

export function defaultSettings(): Settings {
  return {
    faults: {
      latencyMs: 0,
      latencyJitterMs: 0,
      errorRate: 0,
      rateLimitRate: 0,
      dropRate: 0,
      dropMode: 'either',
      labelDelayMs: 1500,
      labelNotReadyStatus: 404,
      faultScope: 'all',
    },
    rateLimit: { requestsPerSecond: 50, burst: 100 },
    webhooks: {
      duplicateRate: 0,
      outOfOrder: false,
      outOfOrderWindowMs: 250,
      retryDelaysMs: [1_000, 5_000, 30_000, 120_000, 600_000],
      timeoutMs: 5_000,
      concurrency: 8,
    },
    bodyLimitBytes: 100 * 1024,
  };
}

/** Applies a validated patch in place (the server reads the same object on every request). */
export function applySettingsPatch(settings: Settings, patch: SettingsPatch): Settings {
  if (patch.faults) Object.assign(settings.faults, patch.faults);
  if (patch.rateLimit) Object.assign(settings.rateLimit, patch.rateLimit);
  if (patch.webhooks) Object.assign(settings.webhooks, patch.webhooks);
  if (patch.bodyLimitBytes !== undefined) settings.bodyLimitBytes = patch.bodyLimitBytes;
  return settings;
}
