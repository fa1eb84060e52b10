/**
 * Precomputed attack and geometry tables for the bitboard core. Leaper attacks (knight, king,
 * pawn) depend on the square only; `between` and `line` drive pin and check-evasion masks.
 * Every table holds bitboards as parallel low/high int32 halves.
 */
import { rayWalkAttacks } from './slider-attacks.js';

function leaper(offsets: ReadonlyArray<readonly [number, number]>, lo: Int32Array, hi: Int32Array, base = 0): void {
  for (let sq = 0; sq < 64; sq++) {
    const f = sq & 7,
      r = sq >> 3;
    let l = 0,
      h = 0;
    for (const [df, dr] of offsets) {
      const f2 = f + df,
        r2 = r + dr;
      if (f2 < 0 || f2 > 7 || r2 < 0 || r2 > 7) continue;
      const t = (r2 << 3) | f2;
      if (t < 32) l |= 1 << t;
      else h |= 1 << (t - 32);
    }
    lo[base + sq] = l;
    hi[base + sq] = h;
  }
}

export const knightAttacksLo = new Int32Array(64);
export const knightAttacksHi = new Int32Array(64);
export const kingAttacksLo = new Int32Array(64);
export const kingAttacksHi = new Int32Array(64);
/** Squares a pawn of `color` on `sq` attacks, at index color * 64 + sq. */
export const pawnAttacksLo = new Int32Array(128);
export const pawnAttacksHi = new Int32Array(128);
/** Empty-board rook and bishop attacks, for finding pinners and checkers by x-ray. */
export const rookRaysLo = new Int32Array(64);
export const rookRaysHi = new Int32Array(64);
export const bishopRaysLo = new Int32Array(64);
export const bishopRaysHi = new Int32Array(64);
/** Squares strictly between a and b when they share a line, else empty; index a * 64 + b. */
export const betweenLo = new Int32Array(4096);
export const betweenHi = new Int32Array(4096);
/** The whole board line through a and b (both included) when they share one, else empty. */
export const lineLo = new Int32Array(4096);
export const lineHi = new Int32Array(4096);

leaper(
  [
    [1, 2],
    [2, 1],
    [2, -1],
    [1, -2],
    [-1, -2],
    [-2, -1],
    [-2, 1],
    [-1, 2],
  ],
  knightAttacksLo,
  knightAttacksHi,
);
leaper(
  [
    [1, 0],
    [1, 1],
    [0, 1],
    [-1, 1],
    [-1, 0],
    [-1, -1],
    [0, -1],
    [1, -1],
  ],
  kingAttacksLo,
  kingAttacksHi,
);
leaper(
  [
    [-1, 1],
    [1, 1],
  ],
  pawnAttacksLo,
  pawnAttacksHi,
  0,
);
leaper(
  [
    [-1, -1],
    [1, -1],
  ],
  pawnAttacksLo,
  pawnAttacksHi,
  64,
);

{
  const out = new Int32Array(2);
  const a = new Int32Array(2),
    b = new Int32Array(2);
  for (let sq = 0; sq < 64; sq++) {
    rayWalkAttacks.rook(sq, 0, 0, out);
    rookRaysLo[sq] = out[0];
    rookRaysHi[sq] = out[1];
    rayWalkAttacks.bishop(sq, 0, 0, out);
    bishopRaysLo[sq] = out[0];
    bishopRaysHi[sq] = out[1];
  }
  for (let s1 = 0; s1 < 64; s1++) {
    for (let s2 = 0; s2 < 64; s2++) {
      if (s1 === s2) continue;
      const lo2 = s2 < 32 ? 1 << s2 : 0,
        hi2 = s2 < 32 ? 0 : 1 << (s2 - 32);
      const lo1 = s1 < 32 ? 1 << s1 : 0,
        hi1 = s1 < 32 ? 0 : 1 << (s1 - 32);
      for (const kind of ['rook', 'bishop'] as const) {
        const raysLo = kind === 'rook' ? rookRaysLo : bishopRaysLo;
        const raysHi = kind === 'rook' ? rookRaysHi : bishopRaysHi;
        if ((raysLo[s1] & lo2) === 0 && (raysHi[s1] & hi2) === 0) continue;
        // Between: attacks from each end with the other end as the only blocker, intersected.
        rayWalkAttacks[kind](s1, lo2, hi2, a);
        rayWalkAttacks[kind](s2, lo1, hi1, b);
        betweenLo[s1 * 64 + s2] = a[0] & b[0];
        betweenHi[s1 * 64 + s2] = a[1] & b[1];
        lineLo[s1 * 64 + s2] = (raysLo[s1] & raysLo[s2]) | lo1 | lo2;
        lineHi[s1 * 64 + s2] = (raysHi[s1] & raysHi[s2]) | hi1 | hi2;
      }
    }
  }
}
