/**
 * chess.js's move order, so `moves()` returns the same array, not only the same set: pieces by
 * square from a8 to h1; a piece's moves direction by direction clockwise from north-west
 * (knights from the jump two files left, one rank up), nearest square first; a pawn's push,
 * double step, then captures (towards the a-file first for White, the h-file first for Black),
 * each promotion as knight, bishop, rook, queen; castles last, king-side first. The core
 * generates in its own order; `sortChessJsOrder` sorts a list in place.
 */
import { KIND_CASTLE, moveFrom, moveKind, movePromo, moveTo } from '../core/move.js';
import { MAX_MOVES } from '../core/movegen.js';
import type { Position } from '../core/position.js';
import { BISHOP, KNIGHT, PAWN, QUEEN, ROOK } from '../core/types.js';

/** A king, queen, rook or bishop move's rank in its piece's list: direction * 8 + distance - 1; a knight jump's: its direction. */
const STEP_ORDER = new Uint8Array(64 * 64);
const QUEEN_DIRECTIONS = [
  [-1, 1], // north-west
  [0, 1],
  [1, 1],
  [1, 0],
  [1, -1],
  [0, -1],
  [-1, -1],
  [-1, 0],
];
const KNIGHT_JUMPS = [
  [-2, 1],
  [-1, 2],
  [1, 2],
  [2, 1],
  [2, -1],
  [1, -2],
  [-1, -2],
  [-2, -1],
];
for (let from = 0; from < 64; from++) {
  const f = from & 7,
    r = from >> 3;
  QUEEN_DIRECTIONS.forEach(([df, dr], dir) => {
    for (let d = 1; d < 8; d++) {
      const f2 = f + df * d,
        r2 = r + dr * d;
      if (f2 < 0 || f2 > 7 || r2 < 0 || r2 > 7) break;
      STEP_ORDER[from * 64 + r2 * 8 + f2] = dir * 8 + d - 1;
    }
  });
  KNIGHT_JUMPS.forEach(([df, dr], dir) => {
    const f2 = f + df,
      r2 = r + dr;
    if (f2 >= 0 && f2 <= 7 && r2 >= 0 && r2 <= 7) STEP_ORDER[from * 64 + r2 * 8 + f2] = dir;
  });
}

/** Promotion piece type → its place among chess.js's promotions (knight, bishop, rook, queen). */
const PROMOTION_ORDER = new Uint8Array(8);
PROMOTION_ORDER[KNIGHT] = 0;
PROMOTION_ORDER[BISHOP] = 1;
PROMOTION_ORDER[ROOK] = 2;
PROMOTION_ORDER[QUEEN] = 3;

const MOVE_BITS = 1 << 17; // a move int is below 2^17
const keys = new Float64Array(MAX_MOVES);

/** Sorts the legal moves moves[0..n) of `pos` into chess.js's order. */
export function sortChessJsOrder(pos: Position, moves: Int32Array, n: number): void {
  const board = pos.board;
  for (let i = 0; i < n; i++) {
    const m = moves[i],
      from = moveFrom(m),
      to = moveTo(m);
    let key: number;
    if (moveKind(m) === KIND_CASTLE) key = 64 * 256 + ((to & 7) === 6 ? 0 : 1);
    else {
      const piece = board[from];
      let within: number;
      if ((piece & 7) === PAWN) {
        const df = (to & 7) - (from & 7);
        const step = df === 0 ? ((from ^ to) === 16 ? 1 : 0) : df < 0 === (piece >> 3 === 0) ? 2 : 3;
        within = step * 4 + PROMOTION_ORDER[movePromo(m)];
      } else within = STEP_ORDER[from * 64 + to] * 4;
      key = ((7 - (from >> 3)) * 8 + (from & 7)) * 256 + within;
    }
    keys[i] = key * MOVE_BITS + m;
  }
  const sorted = keys.subarray(0, n).sort();
  for (let i = 0; i < n; i++) moves[i] = sorted[i] % MOVE_BITS;
}
