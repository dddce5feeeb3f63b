import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import { defaultUpdateSettings, orDefault, updateSettingsSchema, type ReportInvalidSetting } from '../updates/update-settings';

const HostPatternSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, 'must be host names such as track.example.com or *.example.com');

/**
 * The desktop shell's own settings, kept in `desktop.json` in the user data folder so an IT admin
 * can prepare one file and copy it to every bench. Each field falls back to its default on its own
 * when it is missing or invalid, so one typo never stops the station from starting.
 */
export function desktopSettingsSchema(report: ReportInvalidSetting = () => undefined) {
  return z.object({
    /** Full screen without window controls or menu bar, for a bench that does nothing else. */
    kiosk: orDefault(z.boolean().default(false), 'kiosk', false, report),
    launchAtLogin: orDefault(z.boolean().default(false), 'launchAtLogin', false, report),
    /** Hosts whose https links (for example a tracking page) may open in the system browser. */
    externalLinkHosts: orDefault(z.array(HostPatternSchema).max(50).default([]), 'externalLinkHosts', [], report),
    updates: orDefault(updateSettingsSchema(report).default(defaultUpdateSettings()), 'updates', defaultUpdateSettings(), report),
    logLevel: orDefault(z.enum(['debug', 'info', 'warn', 'error']).default('info'), 'logLevel', 'info', report),
  });
}
export type DesktopSettings = z.infer<ReturnType<typeof desktopSettingsSchema>>;

export const defaultDesktopSettings = (): DesktopSettings => desktopSettingsSchema().parse({});

export interface DesktopSettingsFile {
  settings: DesktopSettings;
  /** Why the file was not used exactly as written, in plain words (empty when all is well). */
  problems: string[];
}

export function loadDesktopSettings(file: string): DesktopSettingsFile {
  const problems: string[] = [];
  let raw: unknown = {};
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') problems.push(`${file} is not valid JSON; the defaults are used.`);
  }
  const schema = desktopSettingsSchema((field, problem) => problems.push(`${file}: "${field}" ${problem}; its default is used.`));
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    problems.push(`${file} does not hold an object of settings; the defaults are used.`);
    return { settings: defaultDesktopSettings(), problems };
  }
  for (const key of Object.keys(raw as object)) {
    if (!Object.hasOwn(schema.shape, key)) problems.push(`${file}: unknown setting "${key}" is ignored.`);
  }
  return { settings: parsed.data, problems };
}

export function saveDesktopSettings(file: string, settings: DesktopSettings): void {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(settings, null, 2)}\n`);
  renameSync(temporary, file);
}
