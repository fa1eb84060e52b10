/**
 * Input features: piece p (colour c, type t) on square s seen from perspective `persp` is
 *   ((c === persp ? 0 : 1) · 6 + t − 1) · 64 + (persp === WHITE ? s : s ^ 56)
 * so both perspectives share one weight matrix and Black's view is White's, flipped.
 * A move changes at most two columns in and two out (castling; a capture is one in, two out).
 */
export function featureIndex(persp: number, piece: number, sq: number): number {
  const rel = piece >> 3 === persp ? 0 : 1;
  return (rel * 6 + (piece & 7) - 1) * 64 + (persp === 0 ? sq : sq ^ 56);
}

/** Black's feature for the same piece-square as White's feature `w`. */
export const mirrorFeature = (w: number): number => (w < 384 ? w + 384 : w - 384) ^ 56;

/** Output bucket by the number of pieces on the board (2..32). */
export function outputBucket(pieces: number, buckets: number): number {
  const b = (((pieces - 2) * buckets) / 32) | 0;
  return b < 0 ? 0 : b >= buckets ? buckets - 1 : b;
}
