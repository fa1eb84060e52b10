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
 * The values are this project's own hand-set numbers.
 */
import { BLACK, WHITE } from '../core/types.js';
import type { Position } from '../core/position.js';

export const PHASE_MAX = 24;
/** Phase contribution per piece type (index = type: -, P, B, N, R, Q, K). */
export const PHASE_WEIGHT = Int32Array.of(0, 0, 1, 1, 2, 4, 0);

/** Material values per type (index = type: -, P, B, N, R, Q, K). */
export const MATERIAL_MG = Int32Array.of(0, 85, 340, 325, 480, 990, 0);
export const MATERIAL_EG = Int32Array.of(0, 110, 345, 305, 530, 980, 0);

// Tables are written as a board diagram (rank 8 first, a-file left) and converted to a1 = 0.
const PAWN_MG = [
   0,   0,   0,   0,   0,   0,   0,   0,
  40,  45,  45,  50,  50,  45,  45,  40,
  15,  20,  25,  30,  30,  25,  20,  15,
   5,   8,  12,  22,  22,  12,   8,   5,
   0,   2,   8,  18,  18,   6,   0,  -2,
   2,   4,   6,   8,   8,   0,   4,   2,
   0,   4,   4, -12, -12,   8,   8,   0,
   0,   0,   0,   0,   0,   0,   0,   0,
];
const PAWN_EG = [
   0,   0,   0,   0,   0,   0,   0,   0,
  38,  38,  35,  32,  32,  35,  38,  38,
  22,  22,  18,  15,  15,  18,  22,  22,
  10,   9,   7,   5,   5,   7,   9,  10,
   4,   4,   2,   1,   1,   2,   4,   4,
   1,   1,   0,   0,   0,   0,   1,   1,
   0,   0,   0,   0,   0,   0,   0,   0,
   0,   0,   0,   0,   0,   0,   0,   0,
];
const KNIGHT_MG = [
  -60, -30, -20, -15, -15, -20, -30, -60,
  -25, -10,   5,  10,  10,   5, -10, -25,
  -15,  10,  20,  25,  25,  20,  10, -15,
  -10,   5,  18,  25,  25,  18,   5, -10,
  -12,   2,  15,  18,  18,  15,   2, -12,
  -18,   2,  10,  10,  10,  10,   2, -18,
  -25, -15,   0,   3,   3,   0, -15, -25,
  -50, -22, -25, -15, -15, -25, -22, -50,
];
const KNIGHT_EG = [
  -40, -25, -18, -12, -12, -18, -25, -40,
  -22, -10,  -2,   4,   4,  -2, -10, -22,
  -15,   0,   8,  12,  12,   8,   0, -15,
  -12,   4,  12,  16,  16,  12,   4, -12,
  -12,   2,  10,  14,  14,  10,   2, -12,
  -16,  -4,   2,   8,   8,   2,  -4, -16,
  -25, -12,  -6,  -2,  -2,  -6, -12, -25,
  -40, -28, -20, -14, -14, -20, -28, -40,
];
const BISHOP_MG = [
  -20, -10, -10, -10, -10, -10, -10, -20,
  -10,   0,   0,   0,   0,   0,   0, -10,
   -8,   4,   8,  10,  10,   8,   4,  -8,
   -6,   6,   6,  12,  12,   6,   6,  -6,
   -6,   4,  10,  12,  12,  10,   4,  -6,
   -4,   8,   8,   8,   8,   8,   8,  -4,
   -8,  12,   4,   4,   4,   4,  12,  -8,
  -20,  -8, -12,  -8,  -8, -12,  -8, -20,
];
const BISHOP_EG = [
  -14,  -8,  -6,  -4,  -4,  -6,  -8, -14,
   -8,  -2,   0,   2,   2,   0,  -2,  -8,
   -6,   0,   4,   6,   6,   4,   0,  -6,
   -4,   2,   6,   8,   8,   6,   2,  -4,
   -4,   2,   6,   8,   8,   6,   2,  -4,
   -6,   0,   4,   6,   6,   4,   0,  -6,
   -8,  -2,   0,   2,   2,   0,  -2,  -8,
  -14,  -8,  -6,  -4,  -4,  -6,  -8, -14,
];
const ROOK_MG = [
    5,   8,   8,  10,  10,   8,   8,   5,
   18,  22,  22,  24,  24,  22,  22,  18,
   -4,   2,   4,   4,   4,   4,   2,  -4,
   -8,  -2,   0,   2,   2,   0,  -2,  -8,
  -10,  -4,  -2,   0,   0,  -2,  -4, -10,
  -12,  -6,  -4,  -2,  -2,  -4,  -6, -12,
  -14,  -6,  -4,  -2,  -2,  -4,  -6, -14,
   -6,  -4,   2,   8,   8,   4,  -4,  -6,
];
const ROOK_EG = [
    8,   8,   8,   8,   8,   8,   8,   8,
   10,  12,  12,  12,  12,  12,  12,  10,
    4,   4,   4,   4,   4,   4,   4,   4,
    2,   2,   2,   2,   2,   2,   2,   2,
    0,   0,   0,   0,   0,   0,   0,   0,
   -2,  -2,  -2,  -2,  -2,  -2,  -2,  -2,
   -4,  -4,  -4,  -4,  -4,  -4,  -4,  -4,
   -4,  -2,   0,   0,   0,   0,  -2,  -4,
];
const QUEEN_MG = [
  -15,  -8,  -6,  -4,  -4,  -6,  -8, -15,
  -10, -12,  -4,   0,   0,  -4, -12, -10,
   -6,  -2,   2,   4,   4,   2,  -2,  -6,
   -6,  -2,   2,   4,   4,   2,  -2,  -6,
   -6,  -2,   2,   4,   4,   2,  -2,  -6,
   -8,   2,   2,   2,   2,   2,   2,  -8,
  -10,  -2,   4,   2,   2,  -2,  -2, -10,
  -15, -10,  -6,   2,  -4, -10, -10, -15,
];
const QUEEN_EG = [
  -10,  -4,   0,   4,   4,   0,  -4, -10,
   -4,   4,   8,  10,  10,   8,   4,  -4,
    0,   8,  12,  14,  14,  12,   8,   0,
    2,  10,  14,  18,  18,  14,  10,   2,
    0,   8,  14,  16,  16,  14,   8,   0,
   -4,   2,   8,  10,  10,   8,   2,  -4,
  -10,  -6,  -2,   0,   0,  -2,  -6, -10,
  -18, -14, -10,  -8,  -8, -10, -14, -18,
];
const KING_MG = [
  -50, -50, -50, -55, -55, -50, -50, -50,
  -45, -45, -45, -50, -50, -45, -45, -45,
  -40, -40, -40, -45, -45, -40, -40, -40,
  -35, -35, -40, -45, -45, -40, -35, -35,
  -25, -30, -30, -40, -40, -30, -30, -25,
  -10, -15, -20, -25, -25, -20, -15, -10,
   12,  10,  -4, -12, -12,  -6,  12,  14,
   14,  28,   8, -12,   0,  -8,  30,  20,
];
const KING_EG = [
  -60, -35, -25, -20, -20, -25, -35, -60,
  -30, -10,   0,   4,   4,   0, -10, -30,
  -22,   0,  12,  18,  18,  12,   0, -22,
  -20,   4,  18,  24,  24,  18,   4, -20,
  -22,   0,  14,  20,  20,  14,   0, -22,
  -25,  -6,   6,  10,  10,   6,  -6, -25,
  -35, -15,  -6,  -2,  -2,  -6, -15, -35,
  -60, -40, -28, -22, -22, -28, -40, -60,
];

/** Piece-square bonus only (no material), [type * 64 + sq], White's view. */
export const PST_MG = new Int32Array(7 * 64);
export const PST_EG = new Int32Array(7 * 64);
/** Material + piece-square, [type * 64 + sq], White's view: the tables evaluateMaterialPst sums. */
export const MG_TABLE = new Int32Array(7 * 64);
export const EG_TABLE = new Int32Array(7 * 64);

{
  // Type order: PAWN=1, BISHOP=2, KNIGHT=3, ROOK=4, QUEEN=5, KING=6.
  const mg = [null, PAWN_MG, BISHOP_MG, KNIGHT_MG, ROOK_MG, QUEEN_MG, KING_MG];
  const eg = [null, PAWN_EG, BISHOP_EG, KNIGHT_EG, ROOK_EG, QUEEN_EG, KING_EG];
  for (let t = 1; t <= 6; t++) {
    for (let sq = 0; sq < 64; sq++) {
      const diagram = sq ^ 56; // diagram index: rank 8 first
      PST_MG[t * 64 + sq] = mg[t]![diagram];
      PST_EG[t * 64 + sq] = eg[t]![diagram];
      MG_TABLE[t * 64 + sq] = MATERIAL_MG[t] + mg[t]![diagram];
      EG_TABLE[t * 64 + sq] = MATERIAL_EG[t] + eg[t]![diagram];
    }
  }
}

/** Game phase: PHASE_MAX with all pieces on the board, 0 with only kings and pawns. */
export function gamePhase(pos: Position): number {
  const pl = pos.pieceLo, ph = pos.pieceHi;
  let phase = 0;
  for (let t = 2; t <= 5; t++) {
    phase += PHASE_WEIGHT[t] * (popcnt(pl[t] | 0) + popcnt(ph[t]) + popcnt(pl[t | 8]) + popcnt(ph[t | 8]));
  }
  return phase > PHASE_MAX ? PHASE_MAX : phase;
}

function popcnt(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** Sums MG and EG material+PST from White's view into out[0], out[1]. */
export function materialPstTerms(pos: Position, out: Int32Array): void {
  const pl = pos.pieceLo, ph = pos.pieceHi;
  let mg = 0, eg = 0;
  for (let t = 1; t <= 6; t++) {
    const base = t << 6;
    let lo = pl[t | (WHITE << 3)], hi = ph[t | (WHITE << 3)];
    while (lo !== 0) { const sq = 31 - Math.clz32(lo & -lo); lo &= lo - 1; mg += MG_TABLE[base + sq]; eg += EG_TABLE[base + sq]; }
    while (hi !== 0) { const sq = 63 - Math.clz32(hi & -hi); hi &= hi - 1; mg += MG_TABLE[base + sq]; eg += EG_TABLE[base + sq]; }
    lo = pl[t | (BLACK << 3)]; hi = ph[t | (BLACK << 3)];
    while (lo !== 0) { const sq = (31 - Math.clz32(lo & -lo)) ^ 56; lo &= lo - 1; mg -= MG_TABLE[base + sq]; eg -= EG_TABLE[base + sq]; }
    while (hi !== 0) { const sq = (63 - Math.clz32(hi & -hi)) ^ 56; hi &= hi - 1; mg -= MG_TABLE[base + sq]; eg -= EG_TABLE[base + sq]; }
  }
  out[0] = mg; out[1] = eg;
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
