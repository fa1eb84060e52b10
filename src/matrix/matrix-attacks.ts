/**
 * Move targets as matrix products (the linear side of the line). Inputs and outputs are packed
 * 0/1 matrices (bitmat.ts); P is a "piece-only" matrix with a 1 on each square holding the
 * pieces in question.
 *
 *   knight   N(P) = H1 · P · H2  ∨  H2 · P · H1        (one step one way, two the other)
 *   king     K(P) = T1 · P · T1  ∧ ¬P                  (P one-hot: the king itself)
 *   pawn     forward F(P) = S_{∓1} · P (white moves up a row, black down); captures F(P) · H1
 *   slider   attacks_d(s) = R ∧ ¬(L_d · (occ ∧ R)),  R = L_d · e_s   (the ray from s)
 *            L_d · (occ ∧ R) marks everything beyond a blocker; what is left of the ray
 *            reaches up to and including the first blocker.
 *
 * Shift matrices truncate, so pieces pushed off the board vanish without any bounds test.
 * Outputs go to out[o], out[o + 1].
 */
import { applyOperator, mulCols, mulRows } from './bitmat.js';
import { H1, H2, RAY_OPS, SHIFT, shiftAt, T1 } from './basis.js';
import type { SliderAttacks } from '../core/slider-attacks.js';

const t = new Int32Array(8);
const H1LO = H1[0],
  H1HI = H1[1],
  H2LO = H2[0],
  H2HI = H2[1],
  T1LO = T1[0],
  T1HI = T1[1];
const UP = shiftAt(-1),
  DOWN = shiftAt(1);
const UPLO = SHIFT[UP],
  UPHI = SHIFT[UP + 1],
  DOWNLO = SHIFT[DOWN],
  DOWNHI = SHIFT[DOWN + 1];

export function knightTargets(out: Int32Array, o: number, pLo: number, pHi: number): void {
  mulRows(t, 0, pLo, pHi, H2LO, H2HI); // P · H2
  mulCols(t, 0, H1LO, H1HI, t[0], t[1]); // H1 · P · H2
  mulRows(t, 2, pLo, pHi, H1LO, H1HI); // P · H1
  mulCols(t, 2, H2LO, H2HI, t[2], t[3]); // H2 · P · H1
  out[o] = t[0] | t[2];
  out[o + 1] = t[1] | t[3];
}

export function kingTargets(out: Int32Array, o: number, pLo: number, pHi: number): void {
  mulRows(t, 0, pLo, pHi, T1LO, T1HI); // P · T1
  mulCols(t, 0, T1LO, T1HI, t[0], t[1]); // T1 · P · T1
  out[o] = t[0] & ~pLo;
  out[o + 1] = t[1] & ~pHi;
}

/** One row forward for `color` (0 white: towards row 0; 1 black: towards row 7). */
export function pawnForward(out: Int32Array, o: number, color: number, pLo: number, pHi: number): void {
  if (color === 0) mulCols(out, o, UPLO, UPHI, pLo, pHi);
  else mulCols(out, o, DOWNLO, DOWNHI, pLo, pHi);
}

/** The squares pawns of `color` attack: one row forward, then one column either way. */
export function pawnCaptureTargets(out: Int32Array, o: number, color: number, pLo: number, pHi: number): void {
  pawnForward(t, 4, color, pLo, pHi);
  mulRows(out, o, t[4], t[5], H1LO, H1HI);
}

/** The ray from core square `sq` in direction d, up to and including the first occupied square. */
export function rayAttacks(out: Int32Array, o: number, d: number, sq: number, occLo: number, occHi: number): void {
  const base = 128 * d,
    y = base + 2 * sq;
  const rLo = RAY_OPS[y],
    rHi = RAY_OPS[y + 1]; // R = L_d · e_s
  applyOperator(RAY_OPS, base, t, 6, occLo & rLo, occHi & rHi); // L_d · (occ ∧ R)
  out[o] = rLo & ~t[6];
  out[o + 1] = rHi & ~t[7];
}

/**
 * Union of rayAttacks over directions d0 .. d0 + 3 (0: rook, 4: bishop). The operator product
 * L_d · (occ ∧ R) is written out in place (the OR of L_d's columns at the blockers), so the four
 * rays accumulate in locals.
 */
export function slidingAttacks(out: Int32Array, o: number, d0: number, sq: number, occLo: number, occHi: number): void {
  let lo = 0,
    hi = 0;
  for (let d = d0; d < d0 + 4; d++) {
    const base = 128 * d,
      y = base + 2 * sq;
    const rLo = RAY_OPS[y],
      rHi = RAY_OPS[y + 1];
    let bLo = occLo & rLo,
      bHi = occHi & rHi,
      pLo = 0,
      pHi = 0;
    while (bLo !== 0) {
      const c = base + 2 * (31 - Math.clz32(bLo & -bLo));
      bLo &= bLo - 1;
      pLo |= RAY_OPS[c];
      pHi |= RAY_OPS[c + 1];
    }
    while (bHi !== 0) {
      const c = base + 64 + 2 * (31 - Math.clz32(bHi & -bHi));
      bHi &= bHi - 1;
      pLo |= RAY_OPS[c];
      pHi |= RAY_OPS[c + 1];
    }
    lo |= rLo & ~pLo;
    hi |= rHi & ~pHi;
  }
  out[o] = lo;
  out[o + 1] = hi;
}

/** The matrix model's answer to the core's slider interface (for property tests and plug-in use). */
export const matrixSliderAttacks: SliderAttacks = {
  name: 'matrix',
  rook(sq, occLo, occHi, out) {
    slidingAttacks(out, 0, 0, sq, occLo, occHi);
  },
  bishop(sq, occLo, occHi, out) {
    slidingAttacks(out, 0, 4, sq, occLo, occHi);
  },
};
