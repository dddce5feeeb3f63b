import { describe, expect, it } from 'vitest';
import { createRecentCreations } from '../../../src/main/api/recent-creations';

describe('recently created orders', () => {
  it('remembers an id for the window, then forgets it', () => {
    let now = 0;
    const recent = createRecentCreations({ windowMs: 1000, maxEntries: 10, now: () => now });
    recent.remember('order:A');
    now = 1000;
    expect(recent.isRecent('order:A')).toBe(true);
    now = 1001;
    expect(recent.isRecent('order:A')).toBe(false);
  });

  it('keeps only the newest entries when many orders are created', () => {
    const recent = createRecentCreations({ windowMs: 60_000, maxEntries: 3, now: () => 0 });
    for (const id of ['a', 'b', 'c', 'd']) recent.remember(id);
    expect(['a', 'b', 'c', 'd'].map((id) => recent.isRecent(id))).toEqual([false, true, true, true]);
  });

  it('never confuses an unknown id with a recent one', () => {
    const recent = createRecentCreations({ windowMs: 60_000, maxEntries: 3, now: () => 0 });
    recent.remember('order:A');
    expect(recent.isRecent('order:B')).toBe(false);
  });
});
