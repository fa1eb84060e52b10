/**
 * Input features: piece p (colour c, type t) on square s seen from perspective `persp` is
 *   ((c === persp ? 0 : 1) · 6 + t − 1) · 64 + ((persp === WHITE ? s : s ^ 56) ^ flip)
 * so both perspectives share one weight matrix and Black's view is White's, flipped.
 * A move changes at most two columns in and two out (castling; a capture is one in, two out).
 *
 * Two feature sets (the network file says which):
 * - `plain`: flip = 0, the board as it stands.
 * - `king-mirrored`: flip = 7 (files a↔h) when the perspective's own king stands on files e–h,
 *   so each side sees the board with its king on the queen's half: kingside and queenside king
 *   positions share weights, and the inputs say on which wing the king is. A king move across the
 *   d/e boundary changes all of that perspective's columns: the accumulator is recomputed.
 */
export type NnueFeatures = 'plain' | 'king-mirrored';
export const NNUE_FEATURE_SETS: readonly NnueFeatures[] = ['plain', 'king-mirrored'];

export function featureIndex(persp: number, piece: number, sq: number, flip = 0): number {
  const rel = piece >> 3 === persp ? 0 : 1;
  return (rel * 6 + (piece & 7) - 1) * 64 + ((persp === 0 ? sq : sq ^ 56) ^ flip);
}

/** The file flip (0 or 7) of a perspective whose king stands on `kingSq`. */
export function kingFlip(features: NnueFeatures, kingSq: number): number {
  return features === 'king-mirrored' && (kingSq & 7) >= 4 ? 7 : 0;
}

/** Black's feature for the same piece-square as White's (plain) feature `w`. */
export const mirrorFeature = (w: number): number => (w < 384 ? w + 384 : w - 384) ^ 56;

/** Output bucket by the number of pieces on the board (2..32). */
export function outputBucket(pieces: number, buckets: number): number {
  const b = (((pieces - 2) * buckets) / 32) | 0;
  return b < 0 ? 0 : b >= buckets ? buckets - 1 : b;
}
