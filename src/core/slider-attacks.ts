/**
 * The pluggable sliding-attack provider. Every move-generation backend (classical magic
 * bitboards, the matrix model's prefix sums, the binary neural networks) answers the same two
 * questions through this interface, so perft can prove them identical.
 *
 * Results are written into `out[0]` (low half, squares 0..31) and `out[1]` (high half,
 * squares 32..63) so that hot paths never allocate. Occupancy may include the slider itself
 * and pieces of both colours; attacks include the first blocker in each direction.
 */
export interface SliderAttacks {
  readonly name: string;
  rook(sq: number, occLo: number, occHi: number, out: Int32Array): void;
  bishop(sq: number, occLo: number, occHi: number, out: Int32Array): void;
}

const ROOK_DIRS: ReadonlyArray<readonly [number, number]> = [
  [1, 0],
  [-1, 0],
  [0, 1],
  [0, -1],
];
const BISHOP_DIRS: ReadonlyArray<readonly [number, number]> = [
  [1, 1],
  [1, -1],
  [-1, 1],
  [-1, -1],
];

function walk(dirs: ReadonlyArray<readonly [number, number]>, sq: number, occLo: number, occHi: number, out: Int32Array): void {
  let lo = 0,
    hi = 0;
  const f0 = sq & 7,
    r0 = sq >> 3;
  for (const [df, dr] of dirs) {
    let f = f0 + df,
      r = r0 + dr;
    while (f >= 0 && f < 8 && r >= 0 && r < 8) {
      const s = (r << 3) | f;
      let blocked: boolean;
      if (s < 32) {
        lo |= 1 << s;
        blocked = ((occLo >>> s) & 1) !== 0;
      } else {
        hi |= 1 << (s - 32);
        blocked = ((occHi >>> (s - 32)) & 1) !== 0;
      }
      if (blocked) break;
      f += df;
      r += dr;
    }
  }
  out[0] = lo;
  out[1] = hi;
}

/** Square-by-square ray walking: slow, obviously correct; the reference the others are tested against. */
export const rayWalkAttacks: SliderAttacks = {
  name: 'raywalk',
  rook(sq, occLo, occHi, out) {
    walk(ROOK_DIRS, sq, occLo, occHi, out);
  },
  bishop(sq, occLo, occHi, out) {
    walk(BISHOP_DIRS, sq, occLo, occHi, out);
  },
};
