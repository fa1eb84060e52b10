/**
 * chess.js's `attackers`: the squares of the pieces of one colour that attack a square, pinned
 * or not, whatever stands on it, in chess.js's square order (a8 … h1). Read from a board of piece
 * codes, so it answers for a board being set up as well as for a live Position.
 */
import { kingAttacksHi, kingAttacksLo, knightAttacksHi, knightAttacksLo, pawnAttacksHi, pawnAttacksLo } from '../core/attacks.js';
import { magicAttacks } from '../core/magic.js';
import { BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK } from '../core/types.js';

const rays = new Int32Array(2);

/** Squares of `color`'s pieces on `board` attacking `target`, a8 first. */
export function attackersOf(board: Uint8Array, target: number, color: number): number[] {
  let occLo = 0,
    occHi = 0;
  for (let sq = 0; sq < 64; sq++) {
    if (board[sq] === 0) continue;
    if (sq < 32) occLo |= 1 << sq;
    else occHi |= 1 << (sq - 32);
  }
  magicAttacks.bishop(target, occLo, occHi, rays);
  const diagLo = rays[0],
    diagHi = rays[1];
  magicAttacks.rook(target, occLo, occHi, rays);
  const lineLo = rays[0],
    lineHi = rays[1];
  // A pawn of `color` attacks `target` from the squares a pawn of the other colour on `target` would attack.
  const pawnIndex = ((color ^ 1) << 6) | target;
  const out: number[] = [];
  for (let rank = 7; rank >= 0; rank--) {
    for (let file = 0; file < 8; file++) {
      const sq = rank * 8 + file,
        piece = board[sq];
      if (piece === 0 || piece >> 3 !== color) continue;
      const lo = sq < 32 ? 1 << sq : 0,
        hi = sq < 32 ? 0 : 1 << (sq - 32);
      let attacks: boolean;
      switch (piece & 7) {
        case PAWN:
          attacks = ((pawnAttacksLo[pawnIndex] & lo) | (pawnAttacksHi[pawnIndex] & hi)) !== 0;
          break;
        case KNIGHT:
          attacks = ((knightAttacksLo[target] & lo) | (knightAttacksHi[target] & hi)) !== 0;
          break;
        case KING:
          attacks = ((kingAttacksLo[target] & lo) | (kingAttacksHi[target] & hi)) !== 0;
          break;
        case BISHOP:
          attacks = ((diagLo & lo) | (diagHi & hi)) !== 0;
          break;
        case ROOK:
          attacks = ((lineLo & lo) | (lineHi & hi)) !== 0;
          break;
        case QUEEN:
          attacks = ((diagLo & lo) | (diagHi & hi) | (lineLo & lo) | (lineHi & hi)) !== 0;
          break;
        default:
          attacks = false;
      }
      if (attacks) out.push(sq);
    }
  }
  return out;
}
