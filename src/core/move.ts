/**
 * Moves are small integers so move lists are typed arrays:
 *   bits 0-5   from square
 *   bits 6-11  to square
 *   bits 12-14 promotion piece type (0 none, else BISHOP/KNIGHT/ROOK/QUEEN)
 *   bits 15-16 kind: 0 normal (quiet, capture, double push), 1 en passant, 2 castling
 * Castling is written as the king's move to its target square (e1g1, as UCI does; see castleRight
 * below for Chess960). 0 is never a legal move (a1a1).
 */
import { FILE_NAMES, TYPE_LETTERS } from './types.js';

export const MOVE_NONE = 0;
export const KIND_NORMAL = 0;
export const KIND_EN_PASSANT = 1;
export const KIND_CASTLE = 2;

export const moveFrom = (m: number): number => m & 63;
export const moveTo = (m: number): number => (m >> 6) & 63;
export const movePromo = (m: number): number => (m >> 12) & 7;
export const moveKind = (m: number): number => (m >> 15) & 3;

export const makeMove = (from: number, to: number, promo = 0, kind = 0): number => from | (to << 6) | (promo << 12) | (kind << 15);

/**
 * Castling (Chess960 included). A castle is encoded as the king's move to its target square
 * (g- or c-file, so e1g1 in classical chess; from === to when the king already stands there)
 * with KIND_CASTLE; the castling rook's square is the position's `castleRook` entry of that
 * right. The target file tells the wing, so the move never depends on where the rook stands.
 */
/** The right (bit number: 0 white O-O, 1 white O-O-O, 2 black O-O, 3 black O-O-O) a castle move uses. */
export const castleRight = (m: number): number => (moveFrom(m) >= 32 ? 2 : 0) | ((moveTo(m) & 7) === 6 ? 0 : 1);
/** The castling rook's target square (f- or d-file) of a castle move. */
export const castleRookTo = (m: number): number => ((moveTo(m) & 7) === 6 ? moveTo(m) - 1 : moveTo(m) + 1);
/** The king's target square of castling right `right` (bit number, as castleRight). */
export const castleKingTo = (right: number): number => (right >= 2 ? 56 : 0) + ((right & 1) === 0 ? 6 : 2);

/** UCI text of a move: e2e4, e7e8q, e1g1 (notation.ts's moveToUciIn writes Chess960 castles). */
export function moveToUci(m: number): string {
  const from = moveFrom(m),
    to = moveTo(m),
    promo = movePromo(m);
  let s = FILE_NAMES[from & 7] + ((from >> 3) + 1) + FILE_NAMES[to & 7] + ((to >> 3) + 1);
  if (promo) s += TYPE_LETTERS[promo];
  return s;
}
