import { z } from 'zod';
import { ErrorFactsSchema } from '../errors';
import { defineCall, defineEvent } from './define';

/** Notices the screen words itself (facts: version). */
export const noticeCodes = ['update-ready', 'update-installing'] as const;
export const NoticeCodeSchema = z.enum(noticeCodes);

export const EnvironmentSchema = z.enum(['sandbox', 'test', 'live']);
export type Environment = z.infer<typeof EnvironmentSchema>;

export const AppInfoSchema = z.object({
  name: z.string(),
  version: z.string(),
  environment: EnvironmentSchema,
  /** Whether an API key is stored for the current environment. The key itself never crosses. */
  keySet: z.boolean(),
  /** Which host carries the contract: the Electron shell or the web host. */
  host: z.enum(['electron', 'web']),
  stationName: z.string(),
  /** The station's data folder (database, handover lists, logs), for the first-hour guide and IT. */
  dataDir: z.string().optional(),
});
export type AppInfo = z.infer<typeof AppInfoSchema>;

export const appCalls = {
  'app.info': defineCall(z.object({}).strict(), AppInfoSchema),
};

export const appEvents = {
  /**
   * A notice from main for the screen. `code` and `facts` are what the screen words it by;
   * `message` is English for logs, shown only for a notice without a code.
   */
  'app.notice': defineEvent(
    z.object({ level: z.enum(['info', 'warning', 'error']), message: z.string(), code: NoticeCodeSchema.optional(), facts: ErrorFactsSchema.optional() }),
  ),
};
export type NoticeCode = z.infer<typeof NoticeCodeSchema>;
