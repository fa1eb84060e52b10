/**
 * The project's one seeded random number generator: sfc32 (fast, 32-bit state words, good
 * quality). Zobrist keys, magic-number search, network training, self-play and the tests all
 * draw from it, so every run is reproducible from its seed alone.
 */
export class Sfc32 {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /**
   * A stream seeded through mix32, so nearby seeds give unrelated streams. For a stream that
   * must reproduce fixed tables (Zobrist keys, magics), use `Sfc32.fromState`.
   */
  constructor(seed: number) {
    this.a = mix32(seed ^ 0x9e3779b9);
    this.b = mix32(seed + 0x6a09e667);
    this.c = mix32(seed ^ 0xbb67ae85);
    this.d = 1;
    for (let i = 0; i < 12; i++) this.next();
  }

  /** A stream from raw state words, advanced `warmup` steps. */
  static fromState(a: number, b: number, c: number, d: number, warmup: number): Sfc32 {
    const rng = new Sfc32(0);
    rng.a = a | 0;
    rng.b = b | 0;
    rng.c = c | 0;
    rng.d = d | 0;
    for (let i = 0; i < warmup; i++) rng.next();
    return rng;
  }

  /** Uniform unsigned 32-bit integer. */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  nextFloat(): number {
    return this.next() / 4294967296;
  }
}

/** A strong 32-bit integer hash (splitmix32 / murmur3 finaliser family). */
export function mix32(x: number): number {
  x = (x + 0x9e3779b9) | 0;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}
