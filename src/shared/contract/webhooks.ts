import { z } from 'zod';
import { EnvironmentSchema } from './app';
import { defineCall } from './define';

export const WebhookReceiverStatusSchema = z.object({
  running: z.boolean(),
  /** Whether it should run: remembered across restarts, off until switched on. */
  enabled: z.boolean(),
  host: z.string(),
  port: z.number().int(),
  /** The path per environment to register with the service operator (it holds that environment's secret). */
  paths: z.array(z.object({ environment: EnvironmentSchema, path: z.string() })),
  requests: z.object({ accepted: z.number().int(), rejected: z.number().int() }),
  events: z.object({
    queued: z.number().int(),
    duplicates: z.number().int(),
    applied: z.number().int(),
    same: z.number().int(),
    ignoredBackward: z.number().int(),
    ignoredTerminal: z.number().int(),
    failed: z.number().int(),
    waiting: z.number().int(),
  }),
  lastEventAt: z.string().nullable(),
  problem: z.string().nullable(),
});

export const webhooksCalls = {
  'webhooks.status': defineCall(z.object({}).strict(), WebhookReceiverStatusSchema),
  /** Starts the receiver (port and address from settings) and keeps it on across restarts. */
  'webhooks.start': defineCall(z.object({}).strict(), WebhookReceiverStatusSchema),
  'webhooks.stop': defineCall(z.object({}).strict(), WebhookReceiverStatusSchema),
};
