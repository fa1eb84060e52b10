/**
 * Moves are small integers so move lists are typed arrays:
 *   bits 0-5   from square
 *   bits 6-11  to square
 *   bits 12-14 promotion piece type (0 none, else BISHOP/KNIGHT/ROOK/QUEEN)
 *   bits 15-16 kind: 0 normal (quiet, capture, double push), 1 en passant, 2 castling
 * Castling is written as the king's move (e1g1), as UCI does. 0 is never a legal move (a1a1).
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

/** UCI text of a move: e2e4, e7e8q, e1g1. */
export function moveToUci(m: number): string {
  const from = moveFrom(m),
    to = moveTo(m),
    promo = movePromo(m);
  let s = FILE_NAMES[from & 7] + ((from >> 3) + 1) + FILE_NAMES[to & 7] + ((to >> 3) + 1);
  if (promo) s += TYPE_LETTERS[promo];
  return s;
}
