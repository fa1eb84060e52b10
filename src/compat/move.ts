/**
 * chess.js's verbose move: a `Move` with the moving piece, the squares, SAN and LAN, the FENs
 * before and after, and the flags string with its helpers. Built from a core move int by
 * `describeMove`, only when a caller asks for verbose moves.
 */
import { KIND_CASTLE, KIND_EN_PASSANT, moveFrom, moveKind, movePromo, moveTo, moveToUci } from '../core/move.js';
import { moveToUciIn } from '../core/notation.js';
import type { Position } from '../core/position.js';
import { PAWN, squareName } from '../core/types.js';
import { SYMBOL_OF_TYPE, type Color, type PieceSymbol, type Square } from './constants.js';

/** What a Move is made of (its constructor's argument). */
export interface MoveFields {
  color: Color;
  from: Square;
  to: Square;
  piece: PieceSymbol;
  captured?: PieceSymbol;
  promotion?: PieceSymbol;
  flags: string;
  san: string;
  lan: string;
  before: string;
  after: string;
}

export class Move {
  // Declared in chess.js's order, so Object.keys and JSON.stringify list the same fields the same way.
  color: Color;
  from: Square;
  to: Square;
  piece: PieceSymbol;
  captured?: PieceSymbol;
  promotion?: PieceSymbol;
  /**
   * 'n' normal, 'c' capture, 'b' pawn double step, 'e' en passant, 'k' / 'q' king- / queen-side
   * castle, 'p' appended for a promotion ('np', 'cp'); '-' for a null move. Deprecated in
   * chess.js 1.x in favour of the is…() helpers below.
   */
  flags: string;
  san: string;
  lan: string;
  before: string;
  after: string;

  constructor(fields: MoveFields) {
    this.color = fields.color;
    this.from = fields.from;
    this.to = fields.to;
    this.piece = fields.piece;
    this.captured = fields.captured;
    this.promotion = fields.promotion;
    this.flags = fields.flags;
    this.san = fields.san;
    this.lan = fields.lan;
    this.before = fields.before;
    this.after = fields.after;
  }

  /** A capture other than en passant (as in chess.js). */
  isCapture(): boolean {
    return this.flags.includes('c');
  }
  isPromotion(): boolean {
    return this.flags.includes('p');
  }
  isEnPassant(): boolean {
    return this.flags.includes('e');
  }
  isKingsideCastle(): boolean {
    return this.flags.includes('k');
  }
  isQueensideCastle(): boolean {
    return this.flags.includes('q');
  }
  isBigPawn(): boolean {
    return this.flags.includes('b');
  }
}

/**
 * The Move of legal move `m` of `pos` (before it is made). `lan` is UCI: king-takes-own-rook
 * for a castle in Chess960 (e1h1), the king's move otherwise (e1g1), as `move()` reads it back.
 */
export function describeMove(pos: Position, m: number, san: string, before: string, after: string, chess960: boolean): Move {
  const from = moveFrom(m),
    to = moveTo(m),
    kind = moveKind(m),
    promo = movePromo(m);
  const piece = pos.board[from],
    target = pos.board[to];
  let flags: string;
  let captured: PieceSymbol | undefined;
  if (kind === KIND_CASTLE) flags = (to & 7) === 6 ? 'k' : 'q';
  else if (kind === KIND_EN_PASSANT) {
    flags = 'e';
    captured = 'p';
  } else if (target !== 0) {
    flags = 'c';
    captured = SYMBOL_OF_TYPE[target & 7];
  } else flags = (piece & 7) === PAWN && (from ^ to) === 16 ? 'b' : 'n';
  if (promo !== 0) flags += 'p';
  return new Move({
    color: piece >> 3 === 0 ? 'w' : 'b',
    from: squareName(from) as Square,
    to: squareName(to) as Square,
    piece: SYMBOL_OF_TYPE[piece & 7],
    captured,
    promotion: promo !== 0 ? SYMBOL_OF_TYPE[promo] : undefined,
    flags,
    san,
    lan: chess960 ? moveToUciIn(pos, m, true) : moveToUci(m),
    before,
    after,
  });
}

/** chess.js's record of a null move (a turn passed): from and to a8, a king, SAN '--'. */
export function describeNullMove(color: Color, before: string, after: string): Move {
  return new Move({ color, from: 'a8', to: 'a8', piece: 'k', flags: '-', san: '--', lan: 'a8a8', before, after });
}
