/**
 * Transposition table: a power-of-two array of two-entry buckets in one Int32Array, which may
 * live on a SharedArrayBuffer so that Lazy SMP helper threads share it (src/engine/smp.ts).
 * Entry (4 int32): [0] check = hashHi ^ [1] ^ [2] ^ [3] (the bucket index comes from hashLo),
 * [1] move, [2] score << 16 | static eval & 0xffff, [3] (depth + DEPTH_OFFSET) | bound << 8 | age << 10.
 * An entry with word 3 equal to 0 is empty. Replacement prefers keeping deep entries of the
 * current search; entries from older searches age out. Mate scores are stored relative to the
 * node (the search converts with score.ts's scoreToTt / scoreFromTt).
 *
 * Threads write entries without locks (Hyatt's lockless hashing, as Crafty and Stockfish do):
 * the key is stored XORed with the data words, so an entry torn by two concurrent writers no
 * longer verifies and reads as a miss. `probe` copies the verified words, so the accessors
 * return what was verified even if another thread overwrites the slot meanwhile.
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
  // The words of the entry found by the last probe.
  private hitMove = 0;
  private hitScoreEval = 0;
  private hitMeta = 0;

  /** `shared`: storage on a SharedArrayBuffer, to hand to helper threads with `buffer`. */
  constructor(
    mb = 16,
    private shared = false,
  ) {
    this.resize(mb);
  }

  /** A table over storage another thread allocated (a helper attaching the main thread's `buffer`). */
  static attach(buffer: SharedArrayBuffer): TranspositionTable {
    const tt = new TranspositionTable(1, false);
    tt.attach(buffer);
    return tt;
  }

  /** Uses `buffer` (a power-of-two number of buckets) as storage, without clearing it. */
  attach(buffer: SharedArrayBuffer): void {
    const buckets = buffer.byteLength / (BUCKET_INTS * 4);
    if (!Number.isInteger(buckets) || buckets < 1 || (buckets & (buckets - 1)) !== 0)
      throw new RangeError(
        `transposition table buffer: expected a power-of-two number of ${BUCKET_INTS * 4}-byte buckets, got ${buffer.byteLength} bytes`,
      );
    this.data = new Int32Array(buffer);
    this.mask = buckets - 1;
    this.shared = true;
  }

  /** The storage: a SharedArrayBuffer when the table was made shared. */
  get buffer(): ArrayBufferLike {
    return this.data.buffer;
  }

  get isShared(): boolean {
    return this.shared;
  }

  /** Moves the table to shared (or private) storage of the same size; clears it. */
  setShared(shared: boolean): void {
    if (shared === this.shared) return;
    this.shared = shared;
    this.allocate(this.data.length / BUCKET_INTS);
  }

  /** Re-allocates to the largest power-of-two bucket count that fits in `mb` megabytes (clears). */
  resize(mb: number): void {
    const bytes = Math.max(1, Math.min(MAX_MB, Math.floor(mb))) * 1024 * 1024;
    let buckets = 1;
    while (buckets * 2 * BUCKET_INTS * 4 <= bytes) buckets *= 2;
    this.allocate(buckets);
  }

  private allocate(buckets: number): void {
    const bytes = buckets * BUCKET_INTS * 4;
    this.data = new Int32Array(this.shared ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes));
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

  /** The current search's age; helper threads take the main thread's with `setAge`. */
  get searchAge(): number {
    return this.age;
  }
  setAge(age: number): void {
    this.age = age & 63;
  }

  /** Whether the table holds `lo`/`hi`; on a hit the accessors below return the entry's fields. */
  probe(lo: number, hi: number): boolean {
    const d = this.data;
    let e = (lo & this.mask) * BUCKET_INTS;
    let move = d[e + 1],
      scoreEval = d[e + 2],
      meta = d[e + 3];
    if (meta === 0 || (d[e] ^ move ^ scoreEval ^ meta) !== hi) {
      e += 4;
      move = d[e + 1];
      scoreEval = d[e + 2];
      meta = d[e + 3];
      if (meta === 0 || (d[e] ^ move ^ scoreEval ^ meta) !== hi) return false;
    }
    this.hitMove = move;
    this.hitScoreEval = scoreEval;
    this.hitMeta = meta;
    return true;
  }

  move(): number {
    return this.hitMove;
  }
  score(): number {
    return this.hitScoreEval >> 16;
  }
  staticEval(): number {
    return (this.hitScoreEval << 16) >> 16;
  }
  depth(): number {
    return (this.hitMeta & 0xff) - DEPTH_OFFSET;
  }
  bound(): number {
    return (this.hitMeta >> 8) & 3;
  }

  /** The key the entry at `e` verifies for (meaningless for an empty entry). */
  private keyAt(e: number): number {
    const d = this.data;
    return d[e] ^ d[e + 1] ^ d[e + 2] ^ d[e + 3];
  }

  store(lo: number, hi: number, move: number, score: number, staticEval: number, depth: number, bound: number): void {
    const d = this.data,
      b = (lo & this.mask) * BUCKET_INTS;
    let e: number;
    if (this.keyAt(b) === hi || d[b + 3] === 0) e = b;
    else if (this.keyAt(b + 4) === hi || d[b + 7] === 0) e = b + 4;
    else {
      // Victim: the shallower entry, counting each search of age as 8 plies of depth lost.
      const age = this.age;
      const v0 = (d[b + 3] & 0xff) - 8 * ((age - (d[b + 3] >>> 10)) & 63);
      const v1 = (d[b + 7] & 0xff) - 8 * ((age - (d[b + 7] >>> 10)) & 63);
      e = v1 < v0 ? b + 4 : b;
    }
    const oldMeta = d[e + 3];
    if (oldMeta !== 0 && this.keyAt(e) === hi) {
      // Same position: keep a deeper entry of this search unless the new result is exact.
      const oldDepth = (oldMeta & 0xff) - DEPTH_OFFSET;
      const sameAge = oldMeta >>> 10 === this.age;
      if (bound !== BOUND_EXACT && sameAge && depth + 3 < oldDepth) return;
      if (move === 0) move = d[e + 1];
    }
    if (depth < -DEPTH_OFFSET + 1) depth = -DEPTH_OFFSET + 1;
    if (depth > 255 - DEPTH_OFFSET) depth = 255 - DEPTH_OFFSET;
    const scoreEval = (score << 16) | (staticEval & 0xffff),
      meta = (depth + DEPTH_OFFSET) | (bound << 8) | (this.age << 10);
    d[e] = hi ^ move ^ scoreEval ^ meta;
    d[e + 1] = move;
    d[e + 2] = scoreEval;
    d[e + 3] = meta;
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
