/**
 * Transposition table: a power-of-two array of two-entry buckets in one Int32Array.
 * Entry (4 int32): [0] verification key (hashHi; the bucket index comes from hashLo),
 * [1] move, [2] score << 16 | static eval & 0xffff, [3] (depth + DEPTH_OFFSET) | bound << 8 | age << 10.
 * An entry with word 3 equal to 0 is empty. Replacement prefers keeping deep entries of the
 * current search; entries from older searches age out. Mate scores are stored relative to the
 * node (the search converts with scoreToTt / scoreFromTt).
 */
export const BOUND_NONE = 0;
export const BOUND_UPPER = 1;
export const BOUND_LOWER = 2;
export const BOUND_EXACT = 3;

const DEPTH_OFFSET = 16; // stored depth = depth + 16, so quiescence depths (>= -15) fit and 0 means empty
const BUCKET_INTS = 8;
const MAX_MB = 2048;

export class TranspositionTable {
  private data: Int32Array = new Int32Array(BUCKET_INTS);
  private mask = 0;
  private age = 0;

  constructor(mb = 16) {
    this.resize(mb);
  }

  /** Re-allocates to the largest power-of-two bucket count that fits in `mb` megabytes (clears). */
  resize(mb: number): void {
    const bytes = Math.max(1, Math.min(MAX_MB, Math.floor(mb))) * 1024 * 1024;
    let buckets = 1;
    while (buckets * 2 * BUCKET_INTS * 4 <= bytes) buckets *= 2;
    this.data = new Int32Array(buckets * BUCKET_INTS);
    this.mask = buckets - 1;
    this.age = 0;
  }

  clear(): void {
    this.data.fill(0);
    this.age = 0;
  }

  /** Called once per search so older entries become preferred victims. */
  newSearch(): void {
    this.age = (this.age + 1) & 63;
  }

  /** Index of the matching entry (into the data array) or -1. */
  probe(lo: number, hi: number): number {
    const b = (lo & this.mask) * BUCKET_INTS,
      d = this.data;
    if (d[b] === hi && d[b + 3] !== 0) return b;
    if (d[b + 4] === hi && d[b + 7] !== 0) return b + 4;
    return -1;
  }

  move(e: number): number {
    return this.data[e + 1];
  }
  score(e: number): number {
    return this.data[e + 2] >> 16;
  }
  staticEval(e: number): number {
    return (this.data[e + 2] << 16) >> 16;
  }
  depth(e: number): number {
    return (this.data[e + 3] & 0xff) - DEPTH_OFFSET;
  }
  bound(e: number): number {
    return (this.data[e + 3] >> 8) & 3;
  }

  store(lo: number, hi: number, move: number, score: number, staticEval: number, depth: number, bound: number): void {
    const d = this.data,
      b = (lo & this.mask) * BUCKET_INTS;
    let e: number;
    if (d[b] === hi || d[b + 3] === 0) e = b;
    else if (d[b + 4] === hi || d[b + 7] === 0) e = b + 4;
    else {
      // Victim: the shallower entry, counting each search of age as 8 plies of depth lost.
      const age = this.age;
      const v0 = (d[b + 3] & 0xff) - 8 * ((age - (d[b + 3] >>> 10)) & 63);
      const v1 = (d[b + 7] & 0xff) - 8 * ((age - (d[b + 7] >>> 10)) & 63);
      e = v1 < v0 ? b + 4 : b;
    }
    if (d[e] === hi && d[e + 3] !== 0) {
      // Same position: keep a deeper entry of this search unless the new result is exact.
      const oldDepth = (d[e + 3] & 0xff) - DEPTH_OFFSET;
      const sameAge = d[e + 3] >>> 10 === this.age;
      if (bound !== BOUND_EXACT && sameAge && depth + 3 < oldDepth) return;
      if (move === 0) move = d[e + 1];
    }
    if (depth < -DEPTH_OFFSET + 1) depth = -DEPTH_OFFSET + 1;
    if (depth > 255 - DEPTH_OFFSET) depth = 255 - DEPTH_OFFSET;
    d[e] = hi;
    d[e + 1] = move;
    d[e + 2] = (score << 16) | (staticEval & 0xffff);
    d[e + 3] = (depth + DEPTH_OFFSET) | (bound << 8) | (this.age << 10);
  }

  /** Permille of the first 1000 entries written during the current search (UCI hashfull). */
  hashfull(): number {
    const d = this.data,
      n = Math.min(1000, d.length / 4);
    let used = 0;
    for (let i = 0; i < n; i++) {
      const w = d[i * 4 + 3];
      if (w !== 0 && w >>> 10 === this.age) used++;
    }
    return Math.round((used * 1000) / n);
  }
}
