/**
 * Input features: piece p (colour c, type t) on square s seen from perspective `persp` is
 *   ((c === persp ? 0 : 1) · 6 + t − 1) · 64 + ((persp === WHITE ? s : s ^ 56) ^ flip) + offset
 * so both perspectives share one weight matrix and Black's view is White's, flipped.
 * A move changes at most two columns in and two out (castling; a capture is one in, two out).
 *
 * The perspective's own king decides `flip` and `offset` (its king transform, kingTransform):
 * - `plain`: flip 0, offset 0, the board as it stands: 768 inputs.
 * - `king-mirrored`: flip = 7 (files a↔h) when the perspective's own king stands on files e–h,
 *   so each side sees the board with its king on the queen's half: kingside and queenside king
 *   positions share weights, and the inputs say on which wing the king is. 768 inputs.
 * - `king-buckets`: flip 0, offset 768 · the bucket of the king's square seen from its own side
 *   (KING_BUCKET_LAYOUT: on the back rank a–c, d–e or f–h; on the second rank; further up), so
 *   each bucket has its own 768 columns: 768 · KING_BUCKETS inputs. The layout is not mirrored,
 *   so a position and its reflection use different buckets (reflections still add data).
 * A king move that changes its transform changes all of that perspective's columns: the
 * accumulator is recomputed (evaluator.ts).
 */
export type NnueFeatures = 'plain' | 'king-mirrored' | 'king-buckets';
export const NNUE_FEATURE_SETS: readonly NnueFeatures[] = ['plain', 'king-mirrored', 'king-buckets'];

/** The columns of one king bucket, and of the plain and king-mirrored feature sets. */
export const PLAIN_INPUTS = 768;

/** King bucket by the king's square seen from its own side (a1 = 0: its back rank first). */
export const KING_BUCKET_LAYOUT: Readonly<Uint8Array> = Uint8Array.from({ length: 64 }, (_, sq) =>
  sq < 8 ? (sq < 3 ? 0 : sq < 5 ? 1 : 2) : sq < 16 ? 3 : 4,
);
export const KING_BUCKETS = 5;

/** The number of inputs (W1 rows) of a feature set. */
export function featureInputs(features: NnueFeatures): number {
  return features === 'king-buckets' ? PLAIN_INPUTS * KING_BUCKETS : PLAIN_INPUTS;
}

/**
 * The king transform of perspective `persp` whose king stands on `kingSq`: offset + flip, the
 * offset a multiple of 768 (so of 8) and the flip 0 or 7, so `t & 7` is the flip and `t & ~7` the offset.
 */
export function kingTransform(features: NnueFeatures, persp: number, kingSq: number): number {
  if (features === 'king-mirrored') return (kingSq & 7) >= 4 ? 7 : 0;
  if (features === 'king-buckets') return KING_BUCKET_LAYOUT[persp === 0 ? kingSq : kingSq ^ 56] * PLAIN_INPUTS;
  return 0;
}

/** The feature of `piece` on `sq` from perspective `persp`, under that perspective's king transform `king`. */
export function featureIndex(persp: number, piece: number, sq: number, king = 0): number {
  const rel = piece >> 3 === persp ? 0 : 1;
  return (rel * 6 + (piece & 7) - 1) * 64 + ((persp === 0 ? sq : sq ^ 56) ^ (king & 7)) + (king & ~7);
}

/** A plain feature under a king transform (the trainer's data holds plain White-view features). */
export const transformFeature = (plain: number, king: number): number => (plain ^ (king & 7)) + (king & ~7);

/** Black's feature for the same piece-square as White's (plain) feature `w`. */
export const mirrorFeature = (w: number): number => (w < 384 ? w + 384 : w - 384) ^ 56;

/** Output bucket by the number of pieces on the board (2..32). */
export function outputBucket(pieces: number, buckets: number): number {
  const b = (((pieces - 2) * buckets) / 32) | 0;
  return b < 0 ? 0 : b >= buckets ? buckets - 1 : b;
}
