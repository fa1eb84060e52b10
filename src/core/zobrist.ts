/**
 * Zobrist keys as 32-bit halves, from a fixed-seed generator so hashes are reproducible across
 * runs and machines. A position's key is the XOR of its pieces, castling rights, side and (only
 * when a capture there is possible) en-passant file. A castling right whose rook is not on its
 * corner (Chess960) has its own key by rook square, so that two positions alike but for which
 * rook may castle differ.
 */
import { Sfc32 } from './rng.js';

// The seed and warm-up fix the keys: changing them changes every hash (and the bench count).
const rng = Sfc32.fromState(0x1337, 0x9e3779b9, 0x7f4a7c15, 0x2545f491, 16);
const next = (): number => rng.next() | 0;

function keys(n: number): Int32Array {
  const k = new Int32Array(n);
  for (let i = 0; i < n; i++) k[i] = next();
  return k;
}
/** Indexed by piece code * 64 + square. */
export const pieceKeyLo = keys(16 * 64);
export const pieceKeyHi = keys(16 * 64);
/** Indexed by the 4-bit castling rights. */
export const castlingKeyLo = keys(16);
export const castlingKeyHi = keys(16);
/** Indexed by en-passant file. */
export const epKeyLo = keys(8);
export const epKeyHi = keys(8);
export const sideKeyLo = next();
export const sideKeyHi = next();

// Castling keys must compose by XOR of the single rights so that partial loss hashes consistently.
for (let r = 0; r < 16; r++) {
  let lo = 0,
    hi = 0;
  for (let bit = 0; bit < 4; bit++)
    if (r & (1 << bit)) {
      lo ^= castlingKeyLo[1 << bit];
      hi ^= castlingKeyHi[1 << bit];
    }
  if (r !== 0 && (r & (r - 1)) !== 0) {
    castlingKeyLo[r] = lo;
    castlingKeyHi[r] = hi;
  }
}
castlingKeyLo[0] = 0;
castlingKeyHi[0] = 0;

// Drawn after all the others, so the standard keys (and the bench count) stay as they were.
/** Indexed by right (bit number) * 64 + rook square; used when that rook is not on its corner. */
export const castlingRookKeyLo = keys(4 * 64);
export const castlingRookKeyHi = keys(4 * 64);
/** The corner rook of each right (white O-O, white O-O-O, black O-O, black O-O-O). */
export const CORNER_ROOKS: readonly number[] = [7, 0, 63, 56];

/**
 * Fills out (16 Int32 entries, lo then hi) with the key of every set of rights given each right's
 * rook square: the standard keys when the rooks are in their corners.
 */
export function castlingKeysFor(outLo: Int32Array, outHi: Int32Array, castleRook: ArrayLike<number>): void {
  for (let r = 0; r < 16; r++) {
    let lo = 0,
      hi = 0;
    for (let bit = 0; bit < 4; bit++) {
      if ((r & (1 << bit)) === 0) continue;
      const rook = castleRook[bit];
      if (rook === CORNER_ROOKS[bit]) {
        lo ^= castlingKeyLo[1 << bit];
        hi ^= castlingKeyHi[1 << bit];
      } else {
        lo ^= castlingRookKeyLo[(bit << 6) | rook];
        hi ^= castlingRookKeyHi[(bit << 6) | rook];
      }
    }
    outLo[r] = lo;
    outHi[r] = hi;
  }
}
