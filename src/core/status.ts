/**
 * Game status: whether the game is over and why. Checkmate and stalemate come from the move
 * generator; the draw rules (fifty moves, threefold repetition, insufficient material) from the
 * position's clocks, history and material.
 */
import { MAX_MOVES, defaultGenerator } from './movegen.js';
import type { Position } from './position.js';
import { BISHOP, KNIGHT, PAWN, QUEEN, ROOK } from './types.js';
import { popcount32 } from './bitboard.js';

export type GameEnd = 'checkmate' | 'stalemate' | 'fifty-move' | 'repetition' | 'insufficient-material';

export interface GameStatus {
  /** True when the game has ended by rule (a claimable draw counts as ended). */
  over: boolean;
  check: boolean;
  reason?: GameEnd;
  /** The winner on checkmate. */
  winner?: 'white' | 'black';
  legalMoves: number;
}

// a1 is dark: ranks alternate 0x55 (a1, c1, …) and 0xaa.
const DARK_LO = 0xaa55aa55 | 0,
  DARK_HI = 0xaa55aa55 | 0;

/**
 * Neither side can mate by any series of legal moves: K v K, K+minor v K, and kings with
 * bishops only, all on squares of one colour. (KNN v K can mate with help, so it is not here.)
 */
export function isInsufficientMaterial(pos: Position): boolean {
  const pl = pos.pieceLo,
    ph = pos.pieceHi;
  for (const c of [0, 8]) {
    if ((pl[c | PAWN] | ph[c | PAWN] | pl[c | ROOK] | ph[c | ROOK] | pl[c | QUEEN] | ph[c | QUEEN]) !== 0) return false;
  }
  const knights = popcount32(pl[KNIGHT]) + popcount32(ph[KNIGHT]) + popcount32(pl[8 | KNIGHT]) + popcount32(ph[8 | KNIGHT]);
  const bLo = pl[BISHOP] | pl[8 | BISHOP],
    bHi = ph[BISHOP] | ph[8 | BISHOP];
  const bishops = popcount32(bLo) + popcount32(bHi);
  if (knights + bishops <= 1) return true;
  if (knights > 0) return false;
  const onDark = ((bLo & DARK_LO) | (bHi & DARK_HI)) !== 0,
    onLight = ((bLo & ~DARK_LO) | (bHi & ~DARK_HI)) !== 0;
  return !(onDark && onLight);
}

const buf = new Int32Array(MAX_MOVES);

export function gameStatus(pos: Position): GameStatus {
  const legalMoves = defaultGenerator.generate(pos, buf, 0);
  const check = pos.inCheck();
  if (legalMoves === 0) {
    return check
      ? { over: true, check, reason: 'checkmate', winner: pos.side === 0 ? 'black' : 'white', legalMoves }
      : { over: true, check, reason: 'stalemate', legalMoves };
  }
  if (isInsufficientMaterial(pos)) return { over: true, check, reason: 'insufficient-material', legalMoves };
  if (pos.halfmove >= 100) return { over: true, check, reason: 'fifty-move', legalMoves };
  if (pos.repetitions() >= 2) return { over: true, check, reason: 'repetition', legalMoves };
  return { over: false, check, legalMoves };
}

export const GAME_END_TEXT: Record<GameEnd, string> = {
  checkmate: 'checkmate',
  stalemate: 'stalemate',
  'fifty-move': 'draw by the fifty-move rule',
  repetition: 'draw by threefold repetition',
  'insufficient-material': 'draw by insufficient material',
};
