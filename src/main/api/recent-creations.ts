/**
 * Orders and bundles this client created a moment ago. A 404 on their label means "not generated
 * yet", not "no such order": the service said it created them. Bounded in size and age.
 */
export interface RecentCreations {
  remember(id: string): void;
  isRecent(id: string): boolean;
}

export function createRecentCreations(options: { windowMs: number; maxEntries: number; now: () => number }): RecentCreations {
  // A Map iterates in insertion order, so the oldest entry is always first.
  const createdAt = new Map<string, number>();

  const prune = () => {
    const cutoff = options.now() - options.windowMs;
    for (const [id, at] of createdAt) {
      if (at >= cutoff && createdAt.size <= options.maxEntries) break;
      createdAt.delete(id);
    }
  };

  return {
    remember(id) {
      createdAt.delete(id);
      createdAt.set(id, options.now());
      prune();
    },
    isRecent(id) {
      prune();
      return createdAt.has(id);
    },
  };
}
