/**
 * Material + piece-square evaluation as linear algebra: with one-hot piece matrices P_k (white)
 * and Q_k (black) and weight matrices W_k (from White's view, row 0 = rank 8),
 *
 *   mg = Σ_k ⟨P_k, W_k^mg⟩ − ⟨F · Q_k, W_k^mg⟩        F = row reversal (black sees the board flipped)
 *   eg = the same with W_k^eg
 *   phase = min(24, Σ_k w_k ⟨P_k + Q_k, J⟩)           (⟨X, J⟩ counts the pieces)
 *   score = trunc((mg · phase + eg · (24 − phase)) / 24), negated for Black to move.
 *
 * ⟨A, B⟩ is the Frobenius inner product. The taper (min, product, truncating division) is the
 * non-linear step. The weights are given (linearWeights): built from the engine's tables
 * (src/engine/pst.ts) by the caller, the score is the engine's evaluateMaterialPst exactly. The
 * matrix model does not import the engine: both stand on the core, side by side.
 */
import * as m8 from './mat8.js';
import { unpack } from './bitmat.js';
import { STRIDE, type MatrixPosition } from './matrix-position.js';

/** Weight matrices W_k (k = 1..6) and their flips F · W_k, row-major, index k * 64 + r * 8 + c; and the taper's constants. */
export interface LinearWeights {
  wMg: Int32Array;
  wEg: Int32Array;
  fwMg: Int32Array;
  fwEg: Int32Array;
  /** Phase weight per piece type (index = type), and the phase of a full board. */
  phaseWeight: ArrayLike<number>;
  phaseMax: number;
}

/** The row-reversal permutation F (F[i, 7 − i] = 1). */
export const FLIP = m8.create();
for (let i = 0; i < 8; i++) FLIP[i * 8 + (7 - i)] = 1;

/**
 * The weight matrices of tables indexed [type * 64 + square] from White's view (a1 = 0), as the
 * engine keeps them: W_k cell (r, c) is square (7 − r) * 8 + c, and F · W_k its flip.
 */
export function linearWeights(
  mgTable: ArrayLike<number>,
  egTable: ArrayLike<number>,
  phaseWeight: ArrayLike<number>,
  phaseMax: number,
): LinearWeights {
  const out: LinearWeights = {
    wMg: new Int32Array(7 * 64),
    wEg: new Int32Array(7 * 64),
    fwMg: new Int32Array(7 * 64),
    fwEg: new Int32Array(7 * 64),
    phaseWeight,
    phaseMax,
  };
  const w = m8.create(),
    fw = m8.create();
  for (let k = 1; k <= 6; k++) {
    for (const [table, W, FW] of [
      [mgTable, out.wMg, out.fwMg],
      [egTable, out.wEg, out.fwEg],
    ] as const) {
      for (let i = 0; i < 64; i++) w[i] = table[k * 64 + (((7 - (i >> 3)) << 3) | (i & 7))];
      m8.mul(fw, FLIP, w);
      W.set(w, k * 64);
      FW.set(fw, k * 64);
    }
  }
  return out;
}

/**
 * ⟨P, W⟩ for a packed 0/1 matrix P and an integer matrix W at w[base ..]: the same inner product,
 * summed over the 1s of P only (the other terms are 0 · W).
 */
export function frobeniusPacked(lo: number, hi: number, w: Int32Array, base: number): number {
  let s = 0;
  while (lo !== 0) {
    const b = 31 - Math.clz32(lo & -lo);
    lo &= lo - 1;
    s += w[base + (b ^ 56)];
  }
  while (hi !== 0) {
    const b = 63 - Math.clz32(hi & -hi);
    hi &= hi - 1;
    s += w[base + (b ^ 56)];
  }
  return s;
}

const ONES = m8.ones(m8.create());

/** The score from the side to move's view, by sparse Frobenius products (fast path). */
export function evaluateLinear(mp: MatrixPosition, w: LinearWeights): number {
  const bits = mp.bits,
    b = STRIDE * mp.ply;
  let mg = 0,
    eg = 0,
    phase = 0;
  for (let k = 1; k <= 6; k++) {
    const wLo = bits[b + 2 * k],
      wHi = bits[b + 2 * k + 1];
    const bLo = bits[b + 2 * (k | 8)],
      bHi = bits[b + 2 * (k | 8) + 1];
    mg += frobeniusPacked(wLo, wHi, w.wMg, 64 * k) - frobeniusPacked(bLo, bHi, w.fwMg, 64 * k);
    eg += frobeniusPacked(wLo, wHi, w.wEg, 64 * k) - frobeniusPacked(bLo, bHi, w.fwEg, 64 * k);
    phase += w.phaseWeight[k] * (frobeniusPacked(wLo, wHi, ONES, 0) + frobeniusPacked(bLo, bHi, ONES, 0));
  }
  return taperSide(mg, eg, phase, w.phaseMax, mp.side);
}

/**
 * The same score with every piece matrix unpacked to a full 8×8 integer matrix and every
 * product computed in full (F · Q_k by matrix multiplication): slow, the literal formula.
 */
export function evaluateLinearDense(mp: MatrixPosition, w: LinearWeights): number {
  const bits = mp.bits,
    b = STRIDE * mp.ply;
  const p = m8.create(),
    q = m8.create(),
    fq = m8.create();
  let mg = 0,
    eg = 0,
    phase = 0;
  for (let k = 1; k <= 6; k++) {
    unpack(p, bits[b + 2 * k], bits[b + 2 * k + 1]);
    unpack(q, bits[b + 2 * (k | 8)], bits[b + 2 * (k | 8) + 1]);
    m8.mul(fq, FLIP, q);
    const wmg = w.wMg.subarray(64 * k, 64 * k + 64),
      weg = w.wEg.subarray(64 * k, 64 * k + 64);
    mg += m8.frobenius(p, wmg) - m8.frobenius(fq, wmg);
    eg += m8.frobenius(p, weg) - m8.frobenius(fq, weg);
    phase += w.phaseWeight[k] * (m8.frobenius(p, ONES) + m8.frobenius(q, ONES));
  }
  return taperSide(mg, eg, phase, w.phaseMax, mp.side);
}

/** The non-linear step: clamp the phase, interpolate, truncate, orient to the side to move. */
function taperSide(mg: number, eg: number, phase: number, phaseMax: number, side: number): number {
  if (phase > phaseMax) phase = phaseMax;
  const white = ((mg * phase + eg * (phaseMax - phase)) / phaseMax) | 0;
  return side === 0 ? white : -white | 0; // | 0: no negative zero
}
