import { z } from 'zod';

const isLoopback = (host: string) => host === '127.0.0.1' || host === 'localhost' || host === '[::1]';

/**
 * The update feed: an https URL of a folder holding electron-builder's latest*.yml files and
 * installers (electron-updater's "generic" provider). Plain http is accepted only on the loopback
 * address, for trying a feed out on one machine.
 */
export const UpdateFeedUrlSchema = z
  .string()
  .trim()
  .max(2000)
  .refine((value) => {
    try {
      const url = new URL(value);
      if (url.username || url.password || url.search || url.hash) return false;
      return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url.hostname));
    } catch {
      return false;
    }
  }, 'must be an https:// address (http:// only on 127.0.0.1), without credentials or query');

/** Told about each setting that was invalid and replaced by its default. */
export type ReportInvalidSetting = (field: string, problem: string) => void;

/** A schema whose invalid value falls back to `fallback` and is reported, rather than failing the whole file. */
export const orDefault = <S extends z.ZodType>(schema: S, field: string, fallback: z.output<S>, report: ReportInvalidSetting) =>
  schema.catch((context) => {
    report(field, context.error.issues[0]?.message ?? 'invalid');
    return fallback;
  });

/** Off unless a feed is configured: a bench never phones home by default. */
export function updateSettingsSchema(report: ReportInvalidSetting = () => undefined) {
  return z.object({
    feedUrl: orDefault(UpdateFeedUrlSchema.optional(), 'updates.feedUrl', undefined, report),
    channel: orDefault(z.string().regex(/^[a-z0-9][a-z0-9-]{0,31}$/).default('latest'), 'updates.channel', 'latest', report),
    checkEveryHours: orDefault(z.number().min(1).max(24 * 7).default(4), 'updates.checkEveryHours', 4, report),
    /** How long every print queue must have stayed idle before the app restarts to install. */
    installAfterIdleMinutes: orDefault(z.number().min(0).max(24 * 60).default(2), 'updates.installAfterIdleMinutes', 2, report),
  });
}
export type UpdateSettings = z.infer<ReturnType<typeof updateSettingsSchema>>;

export const defaultUpdateSettings = (): UpdateSettings => updateSettingsSchema().parse({});
