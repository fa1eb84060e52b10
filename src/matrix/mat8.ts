/**
 * General 8×8 integer matrices, row-major (entry [r, c] at index r * 8 + c), gl-matrix style:
 * every operation writes into an `out` argument and allocates nothing, so the same code can
 * run in a hot loop. `out` may alias an input for the entry-wise operations; `mul` and
 * `transpose` need a separate `out` (they check).
 *
 * These are the readable, fully general operations of the model. The fast paths use the
 * packed Boolean form (bitmat.ts) for 0/1 matrices and Int8Array(64) for the board, but they
 * compute the same products (tests compare them).
 */
import { MatrixError } from './errors.js';

export type Mat8 = Int32Array;
/** Any 64-entry row-major integer matrix, e.g. the Int8Array board or a Mat8. */
export type IntMatrix = Int8Array | Int16Array | Int32Array;
export type Vec8 = Int32Array;

export function create(): Mat8 {
  return new Int32Array(64);
}
export function createVec(): Vec8 {
  return new Int32Array(8);
}

/** Refuses anything that is not a 64-entry matrix of integers in [min, max]. */
export function assertMatrix(a: ArrayLike<number>, what = 'matrix', min = -0x80000000, max = 0x7fffffff): void {
  if (a == null || typeof a.length !== 'number' || a.length !== 64) {
    throw new MatrixError('shape', `${what}: expected 64 entries (8×8), got ${a == null ? a : a.length}`);
  }
  for (let i = 0; i < 64; i++) {
    const x = a[i];
    if (typeof x !== 'number' || !Number.isInteger(x) || x < min || x > max) {
      throw new MatrixError('entry', `${what}: entry [${i >> 3}, ${i & 7}] = ${String(x)} is not an integer in [${min}, ${max}]`);
    }
  }
}

/** Refuses an index outside 0..7. */
export function assertIndex(i: number, what = 'index'): void {
  if (!Number.isInteger(i) || i < 0 || i > 7) throw new MatrixError('index', `${what} ${i} is off the board (expected 0..7)`);
}

export function copy<T extends IntMatrix>(out: T, a: ArrayLike<number>): T {
  for (let i = 0; i < 64; i++) out[i] = a[i];
  return out;
}

export function fill<T extends IntMatrix>(out: T, x: number): T {
  for (let i = 0; i < 64; i++) out[i] = x;
  return out;
}

/** Basis vector e_i (length 8). */
export function basisVector(out: Vec8, i: number): Vec8 {
  assertIndex(i, 'basis vector index');
  out.fill(0);
  out[i] = 1;
  return out;
}

/** Outer product u vᵀ. */
export function outer<T extends IntMatrix>(out: T, u: ArrayLike<number>, v: ArrayLike<number>): T {
  for (let r = 0; r < 8; r++) for (let c = 0; c < 8; c++) out[r * 8 + c] = u[r] * v[c];
  return out;
}

const ei = new Int32Array(8),
  ej = new Int32Array(8);
/** The elementary matrix E(i, j) = e_i e_jᵀ, built as the outer product it is. */
export function elementary<T extends IntMatrix>(out: T, i: number, j: number): T {
  basisVector(ei, i);
  basisVector(ej, j);
  return outer(out, ei, ej);
}

/** The all-ones matrix J. */
export function ones<T extends IntMatrix>(out: T): T {
  return fill(out, 1);
}

export function identity<T extends IntMatrix>(out: T): T {
  for (let i = 0; i < 64; i++) out[i] = i >> 3 === (i & 7) ? 1 : 0;
  return out;
}

/**
 * The truncating shift matrix S_k: S_k[i, i − k] = 1 where i − k is in 0..7, else 0.
 * S_k · X moves row i − k of X to row i (down k rows); X · S_k moves column j + k to column j
 * (left k columns). Entries pushed past an edge vanish: nothing wraps. S_0 = I, S_{−k} = S_kᵀ.
 */
export function shift<T extends IntMatrix>(out: T, k: number): T {
  if (!Number.isInteger(k) || k < -8 || k > 8) throw new MatrixError('index', `shift amount ${k} is not an integer in -8..8`);
  for (let i = 0; i < 8; i++) for (let j = 0; j < 8; j++) out[i * 8 + j] = j === i - k ? 1 : 0;
  return out;
}

/** The lower-triangular all-ones matrix L (L[i, j] = 1 for j ≤ i): L · v is the prefix sum of v. */
export function lowerTriangular<T extends IntMatrix>(out: T): T {
  for (let i = 0; i < 8; i++) for (let j = 0; j < 8; j++) out[i * 8 + j] = j <= i ? 1 : 0;
  return out;
}

/** Hadamard (entry-wise) product a ⊙ b. */
export function hadamard<T extends IntMatrix>(out: T, a: ArrayLike<number>, b: ArrayLike<number>): T {
  for (let i = 0; i < 64; i++) out[i] = a[i] * b[i];
  return out;
}

export function add<T extends IntMatrix>(out: T, a: ArrayLike<number>, b: ArrayLike<number>): T {
  for (let i = 0; i < 64; i++) out[i] = a[i] + b[i];
  return out;
}

export function sub<T extends IntMatrix>(out: T, a: ArrayLike<number>, b: ArrayLike<number>): T {
  for (let i = 0; i < 64; i++) out[i] = a[i] - b[i];
  return out;
}

export function scale<T extends IntMatrix>(out: T, a: ArrayLike<number>, s: number): T {
  for (let i = 0; i < 64; i++) out[i] = a[i] * s;
  return out;
}

/** out = a + s · b (the affine "drop a value in" step). */
export function addScaled<T extends IntMatrix>(out: T, a: ArrayLike<number>, s: number, b: ArrayLike<number>): T {
  for (let i = 0; i < 64; i++) out[i] = a[i] + s * b[i];
  return out;
}

/** Matrix product a · b (out must not alias a or b). */
export function mul<T extends IntMatrix>(out: T, a: ArrayLike<number>, b: ArrayLike<number>): T {
  if (out === (a as unknown) || out === (b as unknown)) throw new MatrixError('alias', 'mul: out must not alias an input');
  for (let r = 0; r < 8; r++) {
    for (let c = 0; c < 8; c++) {
      let s = 0;
      for (let k = 0; k < 8; k++) s += a[r * 8 + k] * b[k * 8 + c];
      out[r * 8 + c] = s;
    }
  }
  return out;
}

export function transpose<T extends IntMatrix>(out: T, a: ArrayLike<number>): T {
  if (out === (a as unknown)) throw new MatrixError('alias', 'transpose: out must not alias the input');
  for (let r = 0; r < 8; r++) for (let c = 0; c < 8; c++) out[c * 8 + r] = a[r * 8 + c];
  return out;
}

/** Matrix-vector product a · v. */
export function mulVec(out: Vec8, a: ArrayLike<number>, v: ArrayLike<number>): Vec8 {
  for (let r = 0; r < 8; r++) {
    let s = 0;
    for (let k = 0; k < 8; k++) s += a[r * 8 + k] * v[k];
    out[r] = s;
  }
  return out;
}

/** Row vector times matrix: uᵀ · a. */
export function vecMul(out: Vec8, u: ArrayLike<number>, a: ArrayLike<number>): Vec8 {
  for (let c = 0; c < 8; c++) {
    let s = 0;
    for (let k = 0; k < 8; k++) s += u[k] * a[k * 8 + c];
    out[c] = s;
  }
  return out;
}

export function dot(u: ArrayLike<number>, v: ArrayLike<number>): number {
  let s = 0;
  for (let k = 0; k < 8; k++) s += u[k] * v[k];
  return s;
}

/** Frobenius inner product ⟨a, b⟩ = Σ a[i,j] b[i,j] = trace(aᵀ b). */
export function frobenius(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < 64; i++) s += a[i] * b[i];
  return s;
}

const xr = new Int32Array(8),
  xc = new Int32Array(8),
  xt = new Int32Array(8);
/** Extraction M[r, c] = e_rᵀ · M · e_c, computed as the product it is. */
export function extract(m: ArrayLike<number>, r: number, c: number): number {
  basisVector(xr, r);
  basisVector(xc, c);
  mulVec(xt, m, xc);
  return dot(xr, xt);
}

export function equals(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  for (let i = 0; i < 64; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Fixed-width text rendering, one row per line (row 0 first). */
export function format(a: ArrayLike<number>, width = 3): string {
  const lines: string[] = [];
  for (let r = 0; r < 8; r++) {
    let s = '';
    for (let c = 0; c < 8; c++) s += String(a[r * 8 + c]).padStart(width);
    lines.push(s);
  }
  return lines.join('\n');
}
