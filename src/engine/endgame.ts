/**
 * The evaluation's endgame knowledge, applied to a score after the terms of evaluate.ts (and to
 * the network's output): the scale 0..64 towards the side the score favours for material that
 * cannot or rarely wins (insufficient material, drawish balances, opposite-coloured bishops,
 * rook pawns held in the corner), the mop-up bonus against a bare king, and the material with
 * which nobody can mate.
 */
import { BISHOP, BLACK, KING, KNIGHT, PAWN, QUEEN, ROOK, WHITE } from '../core/types.js';
import type { Position } from '../core/position.js';
import { lsb, popcount32 } from '../core/bitboard.js';
import { MATERIAL_MG } from './pst.js';
import { FILE_A, FILE_H, squareColour, squareDistance } from './geometry.js';

/**
 * Endgame scale 0..64 for the side `strong` that the raw score favours: 0 when it cannot
 * possibly mate or its rook pawns are held in the corner, small for material balances that are
 * usually drawn, 24 or 40 for pure opposite-coloured bishop endings.
 */
export function endgameScale(pos: Position, strong: number): number {
  const pl = pos.pieceLo,
    ph = pos.pieceHi,
    weak = strong ^ 1,
    s = strong << 3,
    w = weak << 3;
  // Common case first: the stronger side has pawns and there is more than bishops on the board.
  if (
    (pl[s | PAWN] | ph[s | PAWN]) !== 0 &&
    (pl[s | KNIGHT] |
      ph[s | KNIGHT] |
      pl[s | ROOK] |
      ph[s | ROOK] |
      pl[s | QUEEN] |
      ph[s | QUEEN] |
      pl[w | KNIGHT] |
      ph[w | KNIGHT] |
      pl[w | ROOK] |
      ph[w | ROOK] |
      pl[w | QUEEN] |
      ph[w | QUEEN]) !==
      0
  )
    return 64;
  const strongPawns = popcount32(pl[s | PAWN]) + popcount32(ph[s | PAWN]);
  const weakPawns = popcount32(pl[w | PAWN]) + popcount32(ph[w | PAWN]);
  const sN = popcount32(pl[s | KNIGHT]) + popcount32(ph[s | KNIGHT]),
    sB = popcount32(pl[s | BISHOP]) + popcount32(ph[s | BISHOP]);
  const sR = popcount32(pl[s | ROOK]) + popcount32(ph[s | ROOK]),
    sQ = popcount32(pl[s | QUEEN]) + popcount32(ph[s | QUEEN]);
  const wN = popcount32(pl[w | KNIGHT]) + popcount32(ph[w | KNIGHT]),
    wB = popcount32(pl[w | BISHOP]) + popcount32(ph[w | BISHOP]);
  const wR = popcount32(pl[w | ROOK]) + popcount32(ph[w | ROOK]),
    wQ = popcount32(pl[w | QUEEN]) + popcount32(ph[w | QUEEN]);
  if (strongPawns === 0) {
    const strongNpm = sN * MATERIAL_MG[KNIGHT] + sB * MATERIAL_MG[BISHOP] + sR * MATERIAL_MG[ROOK] + sQ * MATERIAL_MG[QUEEN];
    const weakNpm = wN * MATERIAL_MG[KNIGHT] + wB * MATERIAL_MG[BISHOP] + wR * MATERIAL_MG[ROOK] + wQ * MATERIAL_MG[QUEEN];
    // A lone minor (or nothing) cannot mate; neither can two knights against a bare king.
    if (strongNpm < MATERIAL_MG[ROOK]) return weakPawns === 0 ? 0 : 4;
    if (sN === 2 && sB + sR + sQ === 0) return weakPawns === 0 ? 0 : 8;
    // Up by at most a minor piece without pawns (KRvKB, KRvKN, KRBvKR ...): usually drawn.
    if (strongNpm - weakNpm <= MATERIAL_MG[BISHOP]) return 12;
  }
  // Opposite-coloured bishops with only pawns besides.
  if (sB === 1 && wB === 1 && sN + sR + sQ + wN + wR + wQ === 0) {
    if (squareColour(lsb(pl[s | BISHOP], ph[s | BISHOP])) !== squareColour(lsb(pl[w | BISHOP], ph[w | BISHOP])))
      return strongPawns - weakPawns <= 2 ? 24 : 40;
  }
  if (rookPawnsHeld(pos, strong, sB, sN + sR + sQ + wN + wB + wR + wQ)) return 0;
  return 64;
}

/**
 * Pawns all on one rook file, with no piece or a lone bishop that cannot cover the queening
 * corner, against a king (and perhaps pawns) at most one step from that corner: a draw however
 * many pawns and however far advanced, since nothing can drive the king out or mate it there
 * (the rule Stockfish's KBPsK ending applies). `others`: every piece but the strong side's bishops.
 */
function rookPawnsHeld(pos: Position, strong: number, bishops: number, others: number): boolean {
  if (others !== 0 || bishops > 1) return false;
  const s = strong << 3,
    pawns = pos.pieceLo[s | PAWN] | pos.pieceHi[s | PAWN]; // the two halves' ranks folded: files survive
  const file = (pawns & ~FILE_A) === 0 ? 0 : (pawns & ~FILE_H) === 0 ? 7 : -1;
  if (pawns === 0 || file < 0) return false;
  const corner = strong === WHITE ? 56 + file : file;
  if (bishops === 1 && squareColour(lsb(pos.pieceLo[s | BISHOP], pos.pieceHi[s | BISHOP])) === squareColour(corner)) return false;
  return squareDistance[pos.kingSq[strong ^ 1] * 64 + corner] <= 1;
}

/** Whether `side` has nothing but its king. */
function bareKing(pos: Position, side: number): boolean {
  const k = (side << 3) | KING;
  return (pos.colorLo[side] & ~pos.pieceLo[k]) === 0 && (pos.colorHi[side] & ~pos.pieceHi[k]) === 0;
}

/**
 * The classical evaluation's endgame knowledge applied to a raw score (side to move's view):
 * the scale for material that cannot or rarely wins, towards the side the score favours, and the
 * mop-up bonus against a bare king. The network's output goes through it too: a draw by
 * insufficient material is a rule, not something a network should have to learn from data.
 */
export function endgameKnowledge(pos: Position, score: number): number {
  const white = endgameWhite(pos, pos.side === WHITE ? score : -score);
  return (pos.side === WHITE ? white : -white) | 0; // | 0: never -0
}

/** endgameKnowledge on a score from White's view. */
export function endgameWhite(pos: Position, white: number): number {
  const strong = white >= 0 ? WHITE : BLACK;
  const scale = endgameScale(pos, strong);
  return scale !== 64 ? ((white * scale) / 64) | 0 : white + mopUp(pos, strong);
}

/**
 * Against a bare king: drive it to the edge (to a corner of the bishop's colour with bishop and
 * knight) and bring the own king closer, so the search sees progress towards mate.
 * White's view; 0 unless the weaker side has only its king.
 */
export function mopUp(pos: Position, strong: number): number {
  const weak = strong ^ 1;
  if (!bareKing(pos, weak)) return 0;
  const s = strong << 3,
    pl = pos.pieceLo,
    ph = pos.pieceHi;
  const k = pos.kingSq[weak],
    own = pos.kingSq[strong];
  const kf = k & 7,
    kr = k >> 3;
  const kingsApart = Math.abs(kf - (own & 7)) + Math.abs(kr - (own >> 3));
  let bonus = 6 * (14 - kingsApart);
  const onlyBishopKnight =
    (pl[s | PAWN] | ph[s | PAWN] | pl[s | ROOK] | ph[s | ROOK] | pl[s | QUEEN] | ph[s | QUEEN]) === 0 &&
    popcount32(pl[s | BISHOP]) + popcount32(ph[s | BISHOP]) === 1 &&
    popcount32(pl[s | KNIGHT]) + popcount32(ph[s | KNIGHT]) === 1;
  if (onlyBishopKnight) {
    const light = squareColour(lsb(pl[s | BISHOP], ph[s | BISHOP])); // 1: light squares (h1's colour)
    const cornerDist = light
      ? Math.min(squareDistance[k * 64 + 7], squareDistance[k * 64 + 56])
      : Math.min(squareDistance[k * 64 + 0], squareDistance[k * 64 + 63]);
    bonus += 40 * (7 - cornerDist);
  } else {
    const centre = Math.max(3 - kf, kf - 4) + Math.max(3 - kr, kr - 4);
    bonus += 12 * centre;
  }
  return strong === WHITE ? bonus : -bonus;
}

/** True when nobody can mate: no pawns, rooks or queens and at most one minor piece in total. */
export function insufficientMaterial(pos: Position): boolean {
  const pl = pos.pieceLo,
    ph = pos.pieceHi;
  if ((pl[1] | ph[1] | pl[9] | ph[9] | pl[4] | ph[4] | pl[12] | ph[12] | pl[5] | ph[5] | pl[13] | ph[13]) !== 0) return false;
  const wMinor = popcount32(pl[2]) + popcount32(ph[2]) + popcount32(pl[3]) + popcount32(ph[3]);
  const bMinor = popcount32(pl[10]) + popcount32(ph[10]) + popcount32(pl[11]) + popcount32(ph[11]);
  // KvK, KminorvK, and KminorvKminor cannot be forced; declared drawn for search purposes
  // only when at most one minor exists (KBvKN mates are helpmates but possible, stay searched).
  return wMinor + bMinor <= 1;
}
