/**
 * A small seeded pseudo-random generator (sfc32 seeded through a string hash), so the seed data,
 * ids and fault decisions are the same on every run with the same seed.
 */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  /** True with probability p. */
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** A string of `length` characters drawn from `alphabet`. */
  chars(length: number, alphabet: string): string;
  /** A new generator whose stream depends on this one's seed and `label`, not on how much of this one was used. */
  fork(label: string): Random;
  /** Where this generator is in its stream, to draw the same values again later (resumeRandom). */
  position(): RandomPosition;
}

/** A generator's seed and place in its stream: four words of state, small enough to keep thousands. */
export interface RandomPosition {
  readonly seed: string;
  readonly state: readonly [number, number, number, number];
}

function hashString(text: string): [number, number, number, number] {
  // xmur3: spreads a string over four 32-bit words.
  let h = 1779033703 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    h = Math.imul(h ^ text.charCodeAt(i), 3432918353);
    h = (h << 13) | (h >>> 19);
  }
  const word = () => {
    h = Math.imul(h ^ (h >>> 16), 2246822507);
    h = Math.imul(h ^ (h >>> 13), 3266489909);
    h ^= h >>> 16;
    return h >>> 0;
  };
  return [word(), word(), word(), word()];
}

/** A stable 32-bit hash of a string (used to derive per-item values such as coordinates). */
export function hash32(text: string): number {
  return hashString(text)[0];
}

/** A stable float in [0, 1) derived from a string. */
export function hashUnit(text: string): number {
  return hash32(text) / 4294967296;
}

export function createRandom(seed: string): Random {
  const random = generator(seed, hashString(seed));
  // Warm up: the first outputs of sfc32 correlate with the seed words.
  for (let i = 0; i < 12; i++) random.next();
  return random;
}

/** A generator that draws what the one at `position` drew next, value for value. */
export function resumeRandom(position: RandomPosition): Random {
  return generator(position.seed, position.state);
}

function generator(seed: string, state: readonly [number, number, number, number]): Random {
  let [a, b, c, d] = state;
  const next = () => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  const random: Random = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    pick: (items) => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[Math.floor(next() * items.length)] as (typeof items)[number];
    },
    chars: (length, alphabet) => {
      let out = '';
      for (let i = 0; i < length; i++) out += alphabet[Math.floor(next() * alphabet.length)];
      return out;
    },
    fork: (label) => createRandom(`${seed}/${label}`),
    position: () => ({ seed, state: [a >>> 0, b >>> 0, c >>> 0, d >>> 0] }),
  };
  return random;
}
