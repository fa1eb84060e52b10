/**
 * Static exchange evaluation: does the capture sequence on a move's target square, both sides
 * always recapturing with their least valuable attacker (x-rays included, pins ignored), gain
 * at least `threshold` centipawns for the mover? Used to order captures and prune losing ones.
 */
import { BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK } from '../core/types.js';
import type { Position } from '../core/position.js';
import { kingAttacksHi, kingAttacksLo, knightAttacksHi, knightAttacksLo, pawnAttacksHi, pawnAttacksLo } from '../core/attacks.js';
import { bishopIndex, bishopTable, rookIndex, rookTable } from '../core/magic.js';
import { moveFrom, moveKind, movePromo, moveTo } from '../core/move.js';

/** Exchange values by piece type (index = type: -, P, B, N, R, Q, K). */
export const SEE_VALUE = Int32Array.of(0, 100, 330, 320, 500, 950, 20000);

const BY_VALUE = Int32Array.of(PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING);

/** True when the move's exchange balance is >= threshold. */
export function seeGe(pos: Position, move: number, threshold: number): boolean {
  const kind = moveKind(move);
  if (kind !== 0 || movePromo(move) !== 0) return threshold <= 0; // e.p., castling, promotions: treat as even
  const from = moveFrom(move),
    to = moveTo(move);
  const board = pos.board;
  let swap = SEE_VALUE[board[to] & 7] - threshold;
  if (swap < 0) return false;
  swap = SEE_VALUE[board[from] & 7] - swap;
  if (swap <= 0) return true;

  const pl = pos.pieceLo,
    ph = pos.pieceHi;
  let occLo = pos.colorLo[0] | pos.colorLo[1],
    occHi = pos.colorHi[0] | pos.colorHi[1];
  if (from < 32) occLo ^= 1 << from;
  else occHi ^= 1 << (from - 32);
  if (to < 32) occLo |= 1 << to;
  else occHi |= 1 << (to - 32);

  const diagLo = pl[BISHOP] | pl[QUEEN] | pl[8 | BISHOP] | pl[8 | QUEEN];
  const diagHi = ph[BISHOP] | ph[QUEEN] | ph[8 | BISHOP] | ph[8 | QUEEN];
  const orthLo = pl[ROOK] | pl[QUEEN] | pl[8 | ROOK] | pl[8 | QUEEN];
  const orthHi = ph[ROOK] | ph[QUEEN] | ph[8 | ROOK] | ph[8 | QUEEN];

  // All attackers of `to` of both colours.
  let bi = bishopIndex(to, occLo, occHi),
    ri = rookIndex(to, occLo, occHi);
  let attLo =
    (pawnAttacksLo[64 | to] & pl[PAWN]) |
    (pawnAttacksLo[to] & pl[8 | PAWN]) |
    (knightAttacksLo[to] & (pl[KNIGHT] | pl[8 | KNIGHT])) |
    (kingAttacksLo[to] & (pl[KING] | pl[8 | KING])) |
    (bishopTable[bi] & diagLo) |
    (rookTable[ri] & orthLo);
  let attHi =
    (pawnAttacksHi[64 | to] & ph[PAWN]) |
    (pawnAttacksHi[to] & ph[8 | PAWN]) |
    (knightAttacksHi[to] & (ph[KNIGHT] | ph[8 | KNIGHT])) |
    (kingAttacksHi[to] & (ph[KING] | ph[8 | KING])) |
    (bishopTable[bi + 1] & diagHi) |
    (rookTable[ri + 1] & orthHi);

  let stm = pos.side;
  let res = 1;
  for (;;) {
    stm ^= 1;
    attLo &= occLo;
    attHi &= occHi;
    const cLo = pos.colorLo[stm],
      cHi = pos.colorHi[stm];
    const sLo = attLo & cLo,
      sHi = attHi & cHi;
    if ((sLo | sHi) === 0) break;
    res ^= 1;
    // Least valuable attacker of the side to recapture.
    let type = PAWN,
      bLo = 0,
      bHi = 0;
    for (let k = 0; k < 6; k++) {
      type = BY_VALUE[k];
      const code = type | (stm << 3);
      bLo = sLo & pl[code];
      bHi = sHi & ph[code];
      if ((bLo | bHi) !== 0) break;
    }
    if (type === KING) {
      // The king may only recapture when the other side has nothing left attacking.
      return ((attLo & ~cLo) | (attHi & ~cHi)) !== 0 ? res === 0 : res === 1;
    }
    swap = SEE_VALUE[type] - swap;
    if (swap < res) break;
    if (bLo !== 0) occLo ^= bLo & -bLo;
    else occHi ^= bHi & -bHi;
    // Uncover x-ray attackers behind the piece that just captured.
    if (type === PAWN || type === BISHOP || type === QUEEN) {
      bi = bishopIndex(to, occLo, occHi);
      attLo |= bishopTable[bi] & diagLo;
      attHi |= bishopTable[bi + 1] & diagHi;
    }
    if (type === ROOK || type === QUEEN) {
      ri = rookIndex(to, occLo, occHi);
      attLo |= rookTable[ri] & orthLo;
      attHi |= rookTable[ri + 1] & orthHi;
    }
  }
  return res === 1;
}
