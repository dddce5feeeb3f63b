import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Redactor } from '../logging/redaction';
import type { BundleFile, SupportBundlePart } from './support-bundle';

/** The log files (newest first), as they are on disk. */
export function logsPart(listFiles: () => string[]): SupportBundlePart {
  return {
    name: 'logs',
    async collect() {
      const files: BundleFile[] = [];
      for (const file of listFiles()) {
        files.push({ path: `logs/${basename(file)}`, content: await readFile(file, 'utf8') });
      }
      return files;
    },
  };
}

/**
 * The settings as JSON. Values under a secret-looking name are replaced (the API key lives in the
 * OS keychain and is never among them, but a future setting must not leak one by accident).
 */
export function settingsPart(readSettings: () => Promise<Record<string, unknown>> | Record<string, unknown>, redactor: Redactor): SupportBundlePart {
  return {
    name: 'settings',
    async collect() {
      const settings = redactor.value(await readSettings());
      return [{ path: 'settings.json', content: `${JSON.stringify(settings, null, 2)}\n` }];
    },
  };
}

export type Versions = Record<string, string>;

export function versionsPart(versions: () => Versions): SupportBundlePart {
  return {
    name: 'versions',
    collect: () => [{ path: 'versions.json', content: `${JSON.stringify(versions(), null, 2)}\n` }],
  };
}

/** What the print journal gives the bundle: its entries of the last 24 hours, in a file of its choosing. */
export interface JournalExport {
  lastDay(now: Date): Promise<BundleFile[]> | BundleFile[];
}

export function journalPart(journal: JournalExport, clock: () => Date = () => new Date()): SupportBundlePart {
  return { name: 'journal', collect: () => journal.lastDay(clock()) };
}
