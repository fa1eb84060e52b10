/**
 * Seeded randomness for training and benchmarks: sfc32 (fast, 32-bit state words, good quality)
 * seeded through splitmix32-style mixing, so every network gets an independent stream derived
 * only from (seed, layout, piece, square, target) and never from thread scheduling.
 */
export class Sfc32 {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    this.a = mix32(seed ^ 0x9e3779b9);
    this.b = mix32(seed + 0x6a09e667);
    this.c = mix32(seed ^ 0xbb67ae85);
    this.d = 1;
    for (let i = 0; i < 12; i++) this.next();
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

export function networkSeed(seed: number, layoutId: number, piece: number, square: number, target: number): number {
  let h = mix32(seed);
  h = mix32(h ^ layoutId);
  h = mix32(h ^ (piece << 8) ^ square);
  return mix32(h ^ target);
}
