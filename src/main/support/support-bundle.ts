/**
 * The "save support bundle" action for IT: one zip with what is needed to understand a bench's
 * problem — its logs, its settings without secrets, the print journal's last day and the versions
 * of everything — and never the API key. Each part comes from a provider, so parts that live in
 * other services (the journal in the store) plug in without this module knowing them; a provider
 * that fails costs its own part only, recorded in the manifest.
 */
import { chmod, writeFile } from 'node:fs/promises';
import { zipSync, strToU8 } from 'fflate';
import type { Redactor } from '../logging/redaction';
import { errorText } from '../../shared/error-text';

export interface BundleFile {
  /** Path inside the zip, with forward slashes (e.g. logs/station.log). */
  path: string;
  content: string | Uint8Array;
}

export interface SupportBundlePart {
  /** Short name in the manifest, such as "logs" or "journal". */
  name: string;
  collect(): Promise<BundleFile[]> | BundleFile[];
}

export interface PartOutcome {
  name: string;
  files: string[];
  error?: string;
}

export interface SupportBundleManifest {
  product: string;
  createdAt: string;
  parts: PartOutcome[];
}

export interface SupportBundleOptions {
  product: string;
  parts: readonly SupportBundlePart[];
  /** Every text file passes through it, including the logs (already redacted when written). */
  redactor: Redactor;
  clock?: () => Date;
}

const safeZipPath = (path: string): string | null => {
  const normalised = path.replace(/\\/g, '/').replace(/^\/+/, '');
  if (normalised === '' || normalised.split('/').some((segment) => segment === '..' || segment === '' || segment === '.')) return null;
  return normalised;
};

export async function buildSupportBundle(options: SupportBundleOptions): Promise<{ zip: Uint8Array; manifest: SupportBundleManifest }> {
  const clock = options.clock ?? (() => new Date());
  const entries: Record<string, Uint8Array> = {};
  const parts: PartOutcome[] = [];

  for (const part of options.parts) {
    try {
      const files = await part.collect();
      const written: string[] = [];
      for (const file of files) {
        const path = safeZipPath(file.path);
        if (!path || path === 'manifest.json' || entries[path]) continue;
        entries[path] = typeof file.content === 'string' ? strToU8(options.redactor.text(file.content)) : file.content;
        written.push(path);
      }
      parts.push({ name: part.name, files: written });
    } catch (error) {
      parts.push({ name: part.name, files: [], error: options.redactor.text(errorText(error)) });
    }
  }

  const manifest: SupportBundleManifest = { product: options.product, createdAt: clock().toISOString(), parts };
  entries['manifest.json'] = strToU8(`${JSON.stringify(manifest, null, 2)}\n`);
  return { zip: zipSync(entries, { level: 6, mtime: clock() }), manifest };
}

export async function saveSupportBundle(file: string, options: SupportBundleOptions): Promise<SupportBundleManifest> {
  const { zip, manifest } = await buildSupportBundle(options);
  await writeFile(file, zip, { mode: 0o600 });
  // The mode above only applies to a new file; one saved over keeps its old mode otherwise.
  if (process.platform !== 'win32') await chmod(file, 0o600);
  return manifest;
}

/** A file name that sorts by time and says which bench it came from. */
export function supportBundleFileName(stationName: string, now: Date): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 13);
  const bench = stationName.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 40) || 'station';
  return `packing-station-support-${bench}-${stamp}.zip`;
}
