/**
 * Whether an unfinished scan was left by a process of this boot of the computer (its unsaved
 * "sending began" survived) or of an earlier one (a power cut may have taken it).
 */
import { describe, expect, it } from 'vitest';
import { currentBoot, sameBoot } from '../../../src/main/boot-identity';

const at = (iso: string) => Date.parse(iso);

describe('boots of the computer', () => {
  it('are told apart by the system’s boot id where it has one, whatever the start times say', () => {
    expect(sameBoot({ bootId: 'a', bootedAtMs: at('2026-11-24T05:00:00Z') }, { bootId: 'a', bootedAtMs: at('2026-11-24T05:00:30Z') })).toBe(true);
    expect(sameBoot({ bootId: 'a', bootedAtMs: at('2026-11-24T05:00:00Z') }, { bootId: 'b', bootedAtMs: at('2026-11-24T05:00:00Z') })).toBe(false);
  });

  it('are told apart by the start time otherwise, allowing for its rounding and small clock corrections', () => {
    const start = at('2026-11-24T05:00:00Z');
    expect(sameBoot({ bootId: null, bootedAtMs: start }, { bootId: null, bootedAtMs: start + 4_000 })).toBe(true);
    expect(sameBoot({ bootId: null, bootedAtMs: start }, { bootId: 'a', bootedAtMs: start - 9_000 })).toBe(true);
    // After a restart the start time is later by how long the computer ran, was off and took to start.
    expect(sameBoot({ bootId: null, bootedAtMs: start }, { bootId: null, bootedAtMs: start + 45_000 })).toBe(false);
  });

  it('reads this computer’s boot the same way twice', () => {
    const first = currentBoot();
    expect(sameBoot(first, currentBoot())).toBe(true);
    expect(first.bootedAtMs).toBeLessThanOrEqual(Date.now());
  });

  it('reads Linux’s boot id on Linux only: on Windows the start time alone tells boots apart', () => {
    const windows = currentBoot(Date.now, 'win32');
    expect(windows.bootId).toBeNull();
    expect(sameBoot(windows, currentBoot(Date.now, 'win32'))).toBe(true);
    // The tests run on Linux, where the boot id is there to read.
    expect(currentBoot(Date.now, 'linux').bootId).toMatch(/^[0-9a-f-]{36}$/);
  });
});
