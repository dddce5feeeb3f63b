/**
 * Which start of the operating system this is. A write that skips waiting for the disk survives
 * the station's process dying (the operating system holds it) but not the computer losing power:
 * work left unfinished by a process of an earlier boot may have lost such writes, work left by a
 * process of this boot has not.
 */
import { readFileSync } from 'node:fs';
import { uptime } from 'node:os';
import { z } from 'zod';

export const BootMarkSchema = z.object({
  /** Linux's own boot id; null where the system has none. */
  bootId: z.string().nullable(),
  /** When the system started, from its uptime (whole seconds on some systems). */
  bootedAtMs: z.number(),
});
export type BootMark = z.infer<typeof BootMarkSchema>;

/** How far two readings of one boot's start may differ: uptime is rounded, and the clock is adjusted by a few seconds at most. */
const SAME_BOOT_TOLERANCE_MS = 10_000;

export function currentBoot(now: () => number = Date.now, platform: NodeJS.Platform = process.platform): BootMark {
  let bootId: string | null = null;
  // Linux only: on Windows the same path names C:\proc\… (a folder any user may create) and, under
  // Wine, the Linux host's file. Elsewhere the start time alone tells boots apart.
  if (platform === 'linux') {
    try {
      bootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || null;
    } catch {
      // A Linux without /proc mounted: the start time alone, too.
    }
  }
  return { bootId, bootedAtMs: Math.round(now() - uptime() * 1000) };
}

/** True only when both marks are surely of the same boot; doubt counts as another boot. */
export function sameBoot(a: BootMark, b: BootMark): boolean {
  if (a.bootId !== null && b.bootId !== null) return a.bootId === b.bootId;
  return Math.abs(a.bootedAtMs - b.bootedAtMs) <= SAME_BOOT_TOLERANCE_MS;
}
