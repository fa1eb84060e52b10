/**
 * The constant matrices of the model, built once from their definitions in mat8.ts and then
 * packed (bitmat.ts): the packed constants *are* the integer matrices, not re-derived tables.
 *
 *   S_k          truncating shifts, k = −7..7            (SHIFT, index k + 7)
 *   J            all-ones
 *   H1, H2       S_1 + S_{−1}, S_2 + S_{−2}: "one / two steps either way"
 *   T1           I + H1: "at most one step either way"
 *
 * and the eight ray operators L_d (64×64, acting on vec(X)): one step in direction
 * d = (dr, dc) is the linear map X ↦ S_dr · X · S_{−dc}; L_d = Σ_{t=1..7} (that step)^t.
 * Along a single rank, file or diagonal this is exactly the strictly lower-triangular prefix
 * matrix L − I of the seed (prefix = L · occ), lifted to the whole board. (L itself, the
 * lower-triangular all-ones matrix with L − I = S_1 + … + S_7, stays an integer matrix in
 * mat8.ts: only the demo and the web panel multiply by it.)
 */
import * as m8 from './mat8.js';
import { BoolOperator64, mul, pack } from './bitmat.js';

const tmp = m8.create();

/** Packed constants: pairs (lo, hi). */
export const SHIFT = new Int32Array(30);
for (let k = -7; k <= 7; k++) pack(SHIFT, 2 * (k + 7), m8.shift(tmp, k));
/** Offset of S_k inside SHIFT. */
export const shiftAt = (k: number): number => 2 * (k + 7);

function packed(build: (out: m8.Mat8) => ArrayLike<number>): Int32Array {
  const out = new Int32Array(2);
  return pack(out, 0, build(m8.create()));
}

export const ALL_ONES = packed(m8.ones);

function sumOfShifts(ks: number[]): Int32Array {
  return packed((out) => {
    out.fill(0);
    for (const k of ks) m8.add(out, out, m8.shift(tmp, k));
    return out;
  });
}
export const H1 = sumOfShifts([1, -1]);
export const H2 = sumOfShifts([2, -2]);
export const T1 = sumOfShifts([-1, 0, 1]);

/** Ray directions as (row step, column step); row 0 is rank 8, so "north" is dr = −1. */
export const DIR_N = 0,
  DIR_S = 1,
  DIR_E = 2,
  DIR_W = 3,
  DIR_NE = 4,
  DIR_NW = 5,
  DIR_SE = 6,
  DIR_SW = 7;
export const DIRECTIONS: ReadonlyArray<readonly [number, number]> = [
  [-1, 0],
  [1, 0],
  [0, 1],
  [0, -1],
  [-1, 1],
  [-1, -1],
  [1, 1],
  [1, -1],
];
export const DIRECTION_NAMES = ['north', 'south', 'east', 'west', 'north-east', 'north-west', 'south-east', 'south-west'];

/** The operator X ↦ S_dr · X · S_{−dc}: every piece one step in direction (dr, dc). */
export function stepMap(dr: number, dc: number): (out: Int32Array, lo: number, hi: number) => void {
  const l = shiftAt(dr),
    r = shiftAt(-dc);
  return (out, lo, hi) => {
    mul(out, 0, SHIFT[l], SHIFT[l + 1], lo, hi);
    mul(out, 0, out[0], out[1], SHIFT[r], SHIFT[r + 1]);
  };
}

/** L_d as a 64×64 Boolean operator: X ↦ OR_{t=1..7} step_d^t(X). */
export function rayOperator(d: number): BoolOperator64 {
  const [dr, dc] = DIRECTIONS[d];
  const step = stepMap(dr, dc);
  return BoolOperator64.fromMap((out, lo, hi) => {
    const x = new Int32Array(2);
    let accLo = 0,
      accHi = 0;
    x[0] = lo;
    x[1] = hi;
    for (let t = 1; t <= 7; t++) {
      step(x, x[0], x[1]);
      accLo |= x[0];
      accHi |= x[1];
    }
    out[0] = accLo;
    out[1] = accHi;
  });
}

/** All eight ray operators, column-stored back to back: L_d's column y at RAY_OPS[128 d + 2 y]. */
export const RAY_OPS = new Int32Array(8 * 128);
for (let d = 0; d < 8; d++) RAY_OPS.set(rayOperator(d).cols, 128 * d);
