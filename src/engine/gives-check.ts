/**
 * Whether a move gives check, told from the position before it is made: the search asks this
 * of moves it may prune, and making a move only to test for check costs a make, an unmake and
 * an attack test.
 */
import { BISHOP, KNIGHT, PAWN, QUEEN, ROOK } from '../core/types.js';
import { knightAttacksHi, knightAttacksLo, pawnAttacksHi, pawnAttacksLo } from '../core/attacks.js';
import { bishopIndex, bishopTable, rookIndex, rookTable } from '../core/magic.js';
import type { Position } from '../core/position.js';
import { moveFrom, moveTo } from '../core/move.js';

/**
 * Whether a quiet move checks the enemy king from its destination (discovered checks and
 * castling checks are not seen): cheap enough to exempt checks from move-count pruning.
 */
export function givesDirectCheck(pos: Position, m: number): boolean {
  const from = moveFrom(m),
    to = moveTo(m),
    type = pos.board[from] & 7,
    us = pos.side;
  const k = pos.kingSq[us ^ 1];
  const kLo = k < 32 ? 1 << k : 0,
    kHi = k < 32 ? 0 : 1 << (k - 32);
  switch (type) {
    case PAWN:
      return ((pawnAttacksLo[(us << 6) | to] & kLo) | (pawnAttacksHi[(us << 6) | to] & kHi)) !== 0;
    case KNIGHT:
      return ((knightAttacksLo[to] & kLo) | (knightAttacksHi[to] & kHi)) !== 0;
    case BISHOP:
    case ROOK:
    case QUEEN: {
      let occLo = pos.colorLo[0] | pos.colorLo[1],
        occHi = pos.colorHi[0] | pos.colorHi[1];
      if (from < 32) occLo &= ~(1 << from);
      else occHi &= ~(1 << (from - 32));
      if (type !== ROOK) {
        const i = bishopIndex(to, occLo, occHi);
        if (((bishopTable[i] & kLo) | (bishopTable[i + 1] & kHi)) !== 0) return true;
      }
      if (type !== BISHOP) {
        const i = rookIndex(to, occLo, occHi);
        if (((rookTable[i] & kLo) | (rookTable[i + 1] & kHi)) !== 0) return true;
      }
      return false;
    }
    default:
      return false;
  }
}

/**
 * Whether a quiet move (no capture, en passant, promotion or castling) gives check: directly
 * from its destination, or by uncovering one of our sliders on a line through its origin.
 * Exact for those moves (a test compares it with making the move).
 */
export function givesQuietCheck(pos: Position, m: number): boolean {
  if (givesDirectCheck(pos, m)) return true;
  const from = moveFrom(m),
    to = moveTo(m),
    us = pos.side,
    o = us << 3,
    k = pos.kingSq[us ^ 1];
  const fromLo = from < 32 ? 1 << from : 0,
    fromHi = from < 32 ? 0 : 1 << (from - 32);
  // The board after the move: the origin empty, the destination taken.
  let occLo = (pos.colorLo[0] | pos.colorLo[1]) & ~fromLo,
    occHi = (pos.colorHi[0] | pos.colorHi[1]) & ~fromHi;
  if (to < 32) occLo |= 1 << to;
  else occHi |= 1 << (to - 32);
  // Our sliders where they stand, less the mover (its new square was the direct test above).
  const pl = pos.pieceLo,
    ph = pos.pieceHi;
  const dLo = (pl[o | BISHOP] | pl[o | QUEEN]) & ~fromLo,
    dHi = (ph[o | BISHOP] | ph[o | QUEEN]) & ~fromHi;
  let i = bishopIndex(k, occLo, occHi);
  if (((bishopTable[i] & dLo) | (bishopTable[i + 1] & dHi)) !== 0) return true;
  const sLo = (pl[o | ROOK] | pl[o | QUEEN]) & ~fromLo,
    sHi = (ph[o | ROOK] | ph[o | QUEEN]) & ~fromHi;
  i = rookIndex(k, occLo, occHi);
  return ((rookTable[i] & sLo) | (rookTable[i + 1] & sHi)) !== 0;
}
