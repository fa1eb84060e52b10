/**
 * Packed 0/1 matrices and their products over the Boolean semiring (OR of ANDs).
 *
 * An 8×8 0/1 matrix is 64 bits held as two int32 halves (lo, hi). Entry [r, c] lives at bit
 * ((7 − r) << 3) | c: matrix row r is the byte of rank 8 − r, column c is bit c of every byte.
 * That is exactly the core's bitboard layout (square a1 = bit 0), so a packed matrix *is* a
 * bitboard and converting between the two is the identity: the matrix meaning (rows, columns,
 * products) is defined by `get(r, c)`, the storage just happens to agree with the core.
 *
 * Products are general: any two matrices in, their Boolean product out. Two loop orders are
 * offered, both exact for every input; they differ only in cost, which is proportional to the
 * number of set bits of the operand they walk (like a sparse BLAS routine):
 *   - mulRows walks the 1s of A: C row i |= B row k for every A[i, k] = 1;
 *   - mulCols walks the 1s of B: C column j |= A column k for every B[k, j] = 1.
 * `mul` picks the cheaper one. Hot paths call the one whose walked operand is the sparse piece
 * matrix (a one-hot piece, a handful of blockers), never a shortcut that bypasses the product.
 *
 * Results go to out[o], out[o + 1]: no allocation.
 */
import { MatrixError } from './errors.js';
import { assertIndex, type IntMatrix } from './mat8.js';
import { popcount32 } from '../core/bitboard.js';

/** Bit position (0..63) of entry [r, c]. */
export const bitOf = (r: number, c: number): number => ((7 - r) << 3) | c;

/** 0 or 1: entry [r, c] of the packed matrix (lo, hi). */
export function get(lo: number, hi: number, r: number, c: number): number {
  const b = bitOf(r, c);
  return b < 32 ? (lo >>> b) & 1 : (hi >>> (b - 32)) & 1;
}

/** Packs a 64-entry 0/1 matrix. Anything other than 0/1 is a MatrixError (use `support` for non-zero-ness). */
export function pack(out: Int32Array, o: number, a: ArrayLike<number>): Int32Array {
  if (a == null || a.length !== 64) throw new MatrixError('shape', 'pack: expected 64 entries');
  let lo = 0,
    hi = 0;
  for (let i = 0; i < 64; i++) {
    const x = a[i];
    if (x !== 0 && x !== 1) throw new MatrixError('entry', `pack: entry [${i >> 3}, ${i & 7}] = ${String(x)} is not 0 or 1`);
    if (x === 1) {
      const b = bitOf(i >> 3, i & 7);
      if (b < 32) lo |= 1 << b;
      else hi |= 1 << (b - 32);
    }
  }
  out[o] = lo;
  out[o + 1] = hi;
  return out;
}

/** Packs the support (non-zero pattern) of an integer matrix, e.g. occupancy of the board M. */
export function support(out: Int32Array, o: number, a: ArrayLike<number>): Int32Array {
  let lo = 0,
    hi = 0;
  for (let i = 0; i < 64; i++) {
    if (a[i] !== 0) {
      const b = bitOf(i >> 3, i & 7);
      if (b < 32) lo |= 1 << b;
      else hi |= 1 << (b - 32);
    }
  }
  out[o] = lo;
  out[o + 1] = hi;
  return out;
}

/** Unpacks into a row-major 0/1 matrix. */
export function unpack(out: IntMatrix, lo: number, hi: number): IntMatrix {
  for (let i = 0; i < 64; i++) out[i] = get(lo, hi, i >> 3, i & 7);
  return out;
}

/** Packed E(i, j). */
export function elementary(out: Int32Array, o: number, i: number, j: number): Int32Array {
  assertIndex(i, 'row');
  assertIndex(j, 'column');
  const b = bitOf(i, j);
  out[o] = b < 32 ? 1 << b : 0;
  out[o + 1] = b < 32 ? 0 : 1 << (b - 32);
  return out;
}

/** C = A · B over the Boolean semiring, walking the 1s of A (cost ∝ popcount A). */
export function mulRows(out: Int32Array, o: number, aLo: number, aHi: number, bLo: number, bHi: number): void {
  let lo = 0,
    hi = 0;
  // A bit at position s is A[i, k] with k = s & 7 and i's byte at s & 24 (this half). Row k of B
  // is the byte of rank 7 − k; OR it into row i of C.
  while (aLo !== 0) {
    const s = 31 - Math.clz32(aLo & -aLo);
    aLo &= aLo - 1;
    const rk = 7 - (s & 7);
    const row = rk < 4 ? (bLo >>> (rk << 3)) & 255 : (bHi >>> ((rk - 4) << 3)) & 255;
    lo |= row << (s & 24);
  }
  while (aHi !== 0) {
    const s = 31 - Math.clz32(aHi & -aHi);
    aHi &= aHi - 1;
    const rk = 7 - (s & 7);
    const row = rk < 4 ? (bLo >>> (rk << 3)) & 255 : (bHi >>> ((rk - 4) << 3)) & 255;
    hi |= row << (s & 24);
  }
  out[o] = lo;
  out[o + 1] = hi;
}

/** C = A · B over the Boolean semiring, walking the 1s of B (cost ∝ popcount B). */
export function mulCols(out: Int32Array, o: number, aLo: number, aHi: number, bLo: number, bHi: number): void {
  let lo = 0,
    hi = 0;
  // A B bit at position s is B[k, j] with j = s & 7 and k = 7 − rank. Column k of A is bit k of
  // every byte of A; OR it into column j of C.
  while (bLo !== 0) {
    const s = 31 - Math.clz32(bLo & -bLo);
    bLo &= bLo - 1;
    const k = 7 - (s >> 3),
      j = s & 7;
    lo |= ((aLo >>> k) & 0x01010101) << j;
    hi |= ((aHi >>> k) & 0x01010101) << j;
  }
  while (bHi !== 0) {
    const s = 31 - Math.clz32(bHi & -bHi);
    bHi &= bHi - 1;
    const k = 3 - (s >> 3),
      j = s & 7;
    lo |= ((aLo >>> k) & 0x01010101) << j;
    hi |= ((aHi >>> k) & 0x01010101) << j;
  }
  out[o] = lo;
  out[o + 1] = hi;
}

/** C = A · B over the Boolean semiring, walking whichever operand has fewer 1s. */
export function mul(out: Int32Array, o: number, aLo: number, aHi: number, bLo: number, bHi: number): void {
  if (popcount32(aLo) + popcount32(aHi) <= popcount32(bLo) + popcount32(bHi)) mulRows(out, o, aLo, aHi, bLo, bHi);
  else mulCols(out, o, aLo, aHi, bLo, bHi);
}

/** Transpose (not on a hot path). */
export function transpose(out: Int32Array, o: number, lo: number, hi: number): void {
  let tlo = 0,
    thi = 0;
  for (let r = 0; r < 8; r++) {
    for (let c = 0; c < 8; c++) {
      if (get(lo, hi, r, c)) {
        const b = bitOf(c, r);
        if (b < 32) tlo |= 1 << b;
        else thi |= 1 << (b - 32);
      }
    }
  }
  out[o] = tlo;
  out[o + 1] = thi;
}

/**
 * A 64×64 Boolean matrix acting on vec(X), the 64 entries of a packed 8×8 matrix, stored by
 * columns: column y (the image of the basis matrix with a single 1 at bit y) at cols[2y], cols[2y + 1].
 * `apply` is a general Boolean matrix-vector product: the OR of the columns selected by the
 * 1s of the vector (cost ∝ popcount of the vector).
 */
export class BoolOperator64 {
  readonly cols = new Int32Array(128);

  /** Builds the operator of a linear map on packed matrices by applying it to each basis matrix. */
  static fromMap(map: (out: Int32Array, lo: number, hi: number) => void): BoolOperator64 {
    const op = new BoolOperator64();
    const t = new Int32Array(2);
    for (let y = 0; y < 64; y++) {
      map(t, y < 32 ? 1 << y : 0, y < 32 ? 0 : 1 << (y - 32));
      op.cols[2 * y] = t[0];
      op.cols[2 * y + 1] = t[1];
    }
    return op;
  }

  apply(out: Int32Array, o: number, vLo: number, vHi: number): void {
    applyOperator(this.cols, 0, out, o, vLo, vHi);
  }
}

/** out = Op · v for an operator stored column-wise at cols[base ..]. */
export function applyOperator(cols: Int32Array, base: number, out: Int32Array, o: number, vLo: number, vHi: number): void {
  let lo = 0,
    hi = 0;
  while (vLo !== 0) {
    const y = base + 2 * (31 - Math.clz32(vLo & -vLo));
    vLo &= vLo - 1;
    lo |= cols[y];
    hi |= cols[y + 1];
  }
  while (vHi !== 0) {
    const y = base + 64 + 2 * (31 - Math.clz32(vHi & -vHi));
    vHi &= vHi - 1;
    lo |= cols[y];
    hi |= cols[y + 1];
  }
  out[o] = lo;
  out[o + 1] = hi;
}

/** Text rendering of a packed 0/1 matrix, row 0 first. */
export function format(lo: number, hi: number, one = '1', zero = '.'): string {
  const lines: string[] = [];
  for (let r = 0; r < 8; r++) {
    const cells: string[] = [];
    for (let c = 0; c < 8; c++) cells.push(get(lo, hi, r, c) ? one : zero);
    lines.push(cells.join(' '));
  }
  return lines.join('\n');
}
