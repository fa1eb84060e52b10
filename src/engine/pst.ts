/**
 * Material and piece-square tables, middlegame and endgame, tapered by a material phase.
 *
 * Formula (exact, integer; the matrix model reproduces it with Frobenius inner products):
 *   mg = sum over white pieces of MG_TABLE[type][sq]        - sum over black pieces of MG_TABLE[type][sq ^ 56]
 *   eg = the same with EG_TABLE
 *   phase = min(PHASE_MAX, sum over all pieces of PHASE_WEIGHT[type])   (knight/bishop 1, rook 2, queen 4; max 24)
 *   white = trunc((mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX)  (division rounds toward zero)
 *   evaluateMaterialPst = white for White to move, -white for Black to move.
 * MG_TABLE / EG_TABLE already include the piece's material value; tables are indexed
 * [type * 64 + sq] from White's view (a1 = 0); types 0 (none) rows are zero.
 * The values live in eval-params.ts, written by the Texel tuner (src/tune/, docs/strength.md).
 */
import { BLACK, WHITE } from '../core/types.js';
import type { Position } from '../core/position.js';
import { MATERIAL_EG_VALUES, MATERIAL_MG_VALUES, PST_EG_DIAGRAMS, PST_MG_DIAGRAMS } from './eval-params.js';
import { popcount32 } from '../core/bitboard.js';

export const PHASE_MAX = 24;
/** Phase contribution per piece type (index = type: -, P, B, N, R, Q, K). */
export const PHASE_WEIGHT = Int32Array.of(0, 0, 1, 1, 2, 4, 0);

/** Material values per type (index = type: -, P, B, N, R, Q, K); tuned values from eval-params.ts. */
export const MATERIAL_MG = Int32Array.from(MATERIAL_MG_VALUES);
export const MATERIAL_EG = Int32Array.from(MATERIAL_EG_VALUES);

/** Piece-square bonus only (no material), [type * 64 + sq], White's view. */
export const PST_MG = new Int32Array(7 * 64);
export const PST_EG = new Int32Array(7 * 64);
/** Material + piece-square, [type * 64 + sq], White's view: the tables evaluateMaterialPst sums. */
export const MG_TABLE = new Int32Array(7 * 64);
export const EG_TABLE = new Int32Array(7 * 64);

/**
 * Sets the material values and piece-square bonuses (a1 = 0 arrays, [type * 64 + sq]) and
 * rebuilds MG_TABLE/EG_TABLE from them. Used at load and by the tuner's A/B runs.
 */
export function setMaterialPst(
  materialMg: ArrayLike<number>,
  materialEg: ArrayLike<number>,
  pstMg: ArrayLike<number>,
  pstEg: ArrayLike<number>,
): void {
  MATERIAL_MG.set(materialMg);
  MATERIAL_EG.set(materialEg);
  PST_MG.set(pstMg);
  PST_EG.set(pstEg);
  for (let t = 1; t <= 6; t++) {
    for (let sq = 0; sq < 64; sq++) {
      MG_TABLE[t * 64 + sq] = MATERIAL_MG[t] + PST_MG[t * 64 + sq];
      EG_TABLE[t * 64 + sq] = MATERIAL_EG[t] + PST_EG[t * 64 + sq];
    }
  }
}

{
  // The diagrams are written rank 8 first; square sq is diagram index sq ^ 56. Type 0 stays zero.
  const fromDiagrams = (d: readonly (readonly number[])[]) => {
    const out = new Int32Array(7 * 64);
    for (let t = 1; t <= 6; t++) for (let sq = 0; sq < 64; sq++) out[t * 64 + sq] = d[t]![sq ^ 56];
    return out;
  };
  setMaterialPst(MATERIAL_MG, MATERIAL_EG, fromDiagrams(PST_MG_DIAGRAMS), fromDiagrams(PST_EG_DIAGRAMS));
}

/** Game phase: PHASE_MAX with all pieces on the board, 0 with only kings and pawns. */
export function gamePhase(pos: Position): number {
  const pl = pos.pieceLo,
    ph = pos.pieceHi;
  let phase = 0;
  for (let t = 2; t <= 5; t++) {
    phase += PHASE_WEIGHT[t] * (popcount32(pl[t] | 0) + popcount32(ph[t]) + popcount32(pl[t | 8]) + popcount32(ph[t | 8]));
  }
  return phase > PHASE_MAX ? PHASE_MAX : phase;
}

/** Sums MG and EG material+PST from White's view into out[0], out[1]. */
export function materialPstTerms(pos: Position, out: Int32Array): void {
  const pl = pos.pieceLo,
    ph = pos.pieceHi;
  let mg = 0,
    eg = 0;
  for (let t = 1; t <= 6; t++) {
    const base = t << 6;
    let lo = pl[t | (WHITE << 3)],
      hi = ph[t | (WHITE << 3)];
    while (lo !== 0) {
      const sq = 31 - Math.clz32(lo & -lo);
      lo &= lo - 1;
      mg += MG_TABLE[base + sq];
      eg += EG_TABLE[base + sq];
    }
    while (hi !== 0) {
      const sq = 63 - Math.clz32(hi & -hi);
      hi &= hi - 1;
      mg += MG_TABLE[base + sq];
      eg += EG_TABLE[base + sq];
    }
    lo = pl[t | (BLACK << 3)];
    hi = ph[t | (BLACK << 3)];
    while (lo !== 0) {
      const sq = (31 - Math.clz32(lo & -lo)) ^ 56;
      lo &= lo - 1;
      mg -= MG_TABLE[base + sq];
      eg -= EG_TABLE[base + sq];
    }
    while (hi !== 0) {
      const sq = (63 - Math.clz32(hi & -hi)) ^ 56;
      hi &= hi - 1;
      mg -= MG_TABLE[base + sq];
      eg -= EG_TABLE[base + sq];
    }
  }
  out[0] = mg;
  out[1] = eg;
}

/** The taper: trunc((mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX). */
export function taper(mg: number, eg: number, phase: number): number {
  return ((mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX) | 0;
}

const terms = new Int32Array(2);

/** Material + PST only, tapered, in centipawns from the side to move's view (see the formula above). */
export function evaluateMaterialPst(pos: Position): number {
  materialPstTerms(pos, terms);
  const white = taper(terms[0], terms[1], gamePhase(pos));
  return (pos.side === WHITE ? white : -white) | 0; // | 0: never -0
}
