/**
 * Bitboards as two signed 32-bit halves: `lo` holds squares 0..31 (ranks 1-4), `hi` squares
 * 32..63 (ranks 5-8). No BigInt anywhere near a hot path: every operation is on int32.
 */
export function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

export function popcount(lo: number, hi: number): number {
  return popcount32(lo) + popcount32(hi);
}

/** Index of the lowest set bit of a non-zero 32-bit value. */
export function lsb32(x: number): number {
  return 31 - Math.clz32(x & -x);
}

/** Index (0..63) of the lowest set bit of a non-empty bitboard. */
export function lsb(lo: number, hi: number): number {
  return lo !== 0 ? 31 - Math.clz32(lo & -lo) : 63 - Math.clz32(hi & -hi);
}

/** Index (0..63) of the highest set bit of a non-empty bitboard. */
export function msb(lo: number, hi: number): number {
  return hi !== 0 ? 63 - Math.clz32(hi) : 31 - Math.clz32(lo);
}

export function hasBit(lo: number, hi: number, sq: number): boolean {
  return sq < 32 ? ((lo >>> sq) & 1) !== 0 : ((hi >>> (sq - 32)) & 1) !== 0;
}

/** Square indices of a bitboard, ascending (allocates: for tools and tests, not hot paths). */
export function squaresOf(lo: number, hi: number): number[] {
  const out: number[] = [];
  while (lo !== 0) {
    out.push(31 - Math.clz32(lo & -lo));
    lo &= lo - 1;
  }
  while (hi !== 0) {
    out.push(63 - Math.clz32(hi & -hi));
    hi &= hi - 1;
  }
  return out;
}

/** Bitboard of a list of squares, written into out[0], out[1]. */
export function fromSquares(squares: Iterable<number>, out: Int32Array): Int32Array {
  let lo = 0,
    hi = 0;
  for (const sq of squares) {
    if (sq < 32) lo |= 1 << sq;
    else hi |= 1 << (sq - 32);
  }
  out[0] = lo;
  out[1] = hi;
  return out;
}

/** Converts to/from BigInt only for tools, tests and display. */
export function toBigInt(lo: number, hi: number): bigint {
  return (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0);
}
export function fromBigInt(x: bigint, out: Int32Array): Int32Array {
  out[0] = Number(x & 0xffffffffn) | 0;
  out[1] = Number((x >> 32n) & 0xffffffffn) | 0;
  return out;
}
