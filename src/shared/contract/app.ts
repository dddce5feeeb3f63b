import { z } from 'zod';
import { defineCall, defineEvent } from './define';

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
});
export type AppInfo = z.infer<typeof AppInfoSchema>;

export const appCalls = {
  'app.info': defineCall(z.object({}).strict(), AppInfoSchema),
};

export const appEvents = {
  /** A plain-language notice from main for the screen (for example the sandbox starting). */
  'app.notice': defineEvent(z.object({ level: z.enum(['info', 'warning', 'error']), message: z.string() })),
};
