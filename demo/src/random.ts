/**
 * The demo's pseudo-random numbers: a seeded sfc32 generator, so the same seed and clock give the
 * same rows (tests read stable data). Secrets (exchange codes, invite codes, API keys) never
 * come from here — they use node:crypto so nobody can derive them from the seed.
 */

/** 32-bit hash of a string (FNV-1a), to derive independent streams from one seed. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(
    readonly seed: number,
    readonly label = '',
  ) {
    this.a = seed >>> 0;
    this.b = hash32(label) ^ 0x9e3779b9;
    this.c = (seed * 31 + 7) >>> 0;
    this.d = 1;
    for (let i = 0; i < 15; i++) this.next();
  }

  /** An independent stream: adding draws to one area does not shift another area's data. */
  fork(label: string): Rng {
    return new Rng(this.seed, `${this.label}/${label}`);
  }

  /** [0, 1) */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** A float in [min, max). */
  float(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** One of the keys, with the given weights. */
  weighted<T>(pairs: readonly (readonly [T, number])[]): T {
    const total = pairs.reduce((s, [, w]) => s + w, 0);
    let r = this.next() * total;
    for (const [value, w] of pairs) {
      r -= w;
      if (r < 0) return value;
    }
    return (pairs.at(-1) as readonly [T, number])[0];
  }

  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j] as T, out[i] as T];
    }
    return out;
  }

  /** n distinct items (all of them when n ≥ length), in random order. */
  sample<T>(items: readonly T[], n: number): T[] {
    return this.shuffle(items).slice(0, Math.max(0, n));
  }

  /** Roughly normal (sum of uniforms), clamped to [min, max]. */
  around(
    mean: number,
    spread: number,
    min = Number.NEGATIVE_INFINITY,
    max = Number.POSITIVE_INFINITY,
  ): number {
    const z = this.next() + this.next() + this.next() - 1.5;
    return Math.min(max, Math.max(min, mean + z * spread * 1.4));
  }

  digits(n: number): string {
    let out = '';
    for (let i = 0; i < n; i++) out += String(this.int(0, 9));
    return out;
  }
}
