/**
 * chess.js's move input, read against a position's legal moves. Strict: SAN as written
 * (Nf3, exd5, e8=Q or e8Q, O-O), check and annotation marks ignored. Permissive (the default)
 * also takes what chess.js's permissive parser documents: a missing or needless capture mark on a
 * from-square move (ef4, d7xd6), over-disambiguation (Ngf3, Ng1f3), long algebraic with or
 * without a piece letter or hyphen (e2e4, e2-e4, Pe2-e4, Ng1-f3), castles with zeros (0-0), and
 * so UCI (e7e8q). A move object is { from, to, promotion }. Castling by king-takes-own-rook
 * (e1h1) is read in both variants; in Chess960 it is the way to name a castle by squares.
 */
import { KIND_CASTLE, KIND_EN_PASSANT, moveFrom, moveKind, movePromo, moveTo } from '../core/move.js';
import type { Position } from '../core/position.js';
import { PAWN, parseSquare, pieceType } from '../core/types.js';
import { moveToSanAmong } from '../core/notation.js';
import { typeOfSymbol } from './constants.js';

const SAN = /^([NBRQK])?([a-h])?([1-8])?(x)?([a-h][1-8])(?:=?([QRBN]))?$/;
const LONG = /^([PNBRQKpnbrqk])?([a-h][1-8])[-x]?([a-h][1-8])(?:=?([QRBNqrbn]))?$/;
/** Check and mate marks and annotation glyphs after a move, and a dangling '=' (chess.js drops them). */
const MARKS = /(?:=|[+#]?[?!]{0,2})$/;
const EN_PASSANT_MARK = /\s?e\.p\.$/;

export interface MoveObject {
  from: string;
  to: string;
  promotion?: string;
}

/**
 * The legal move (from legal[0..n) of `pos`) that `input` names, or 0 when it names none or more
 * than one. `chess960`: castles by squares are king-takes-own-rook only (the king's target square
 * can be an ordinary king move there).
 */
export function parseMoveInput(
  pos: Position,
  legal: Int32Array,
  n: number,
  input: string | MoveObject,
  strict: boolean,
  chess960: boolean,
): number {
  if (typeof input === 'object' && input !== null) {
    const from = parseSquare(input.from),
      to = parseSquare(input.to);
    if (from < 0 || to < 0) return 0;
    // chess.js: a promotion piece, lower case, is needed for a promotion and ignored on any other move.
    const promo = typeof input.promotion === 'string' && /^[qrbn]$/.test(input.promotion) ? typeOfSymbol(input.promotion) : -1;
    return bySquares(pos, legal, n, from, to, promo, true, chess960);
  }
  if (typeof input !== 'string') return 0;
  let text = strict ? input : input.replace(EN_PASSANT_MARK, '');
  text = text.replace(MARKS, '');
  if (text === 'O-O' || text === 'O-O-O' || (!strict && (text === '0-0' || text === '0-0-0'))) {
    const kingSide = text.length === 3;
    for (let i = 0; i < n; i++) if (moveKind(legal[i]) === KIND_CASTLE && ((moveTo(legal[i]) & 7) === 6) === kingSide) return legal[i];
    return 0;
  }
  const san = SAN.exec(text);
  if (san) {
    const m = strict ? strictSan(pos, legal, n, text, parseSquare(san[5])) : permissiveSan(pos, legal, n, san);
    if (m !== 0 || strict) return m;
  } else if (strict) return 0;
  const long = LONG.exec(text);
  if (!long) return 0;
  const piece = long[1] ? typeOfSymbol(long[1].toLowerCase()) : 0;
  const from = parseSquare(long[2]);
  if (piece !== 0 && (pos.board[from] & 7) !== piece) return 0;
  return bySquares(pos, legal, n, from, parseSquare(long[3]), long[4] ? typeOfSymbol(long[4].toLowerCase()) : 0, false, chess960);
}

/** Strict SAN: the text is the move's SAN (marks stripped; '=' before a promotion piece optional). */
function strictSan(pos: Position, legal: Int32Array, n: number, text: string, to: number): number {
  const want = text.replace('=', '');
  for (let i = 0; i < n; i++) {
    const m = legal[i];
    if (moveTo(m) !== to || moveKind(m) === KIND_CASTLE) continue;
    if (moveToSanAmong(pos, m, legal, n).replace(/[+#=]/g, '') === want) return m;
  }
  return 0;
}

/** SAN read loosely: any disambiguation that leaves one move, the capture mark optional (but not on a non-capture). */
function permissiveSan(pos: Position, legal: Int32Array, n: number, san: RegExpExecArray): number {
  const type = san[1] ? typeOfSymbol(san[1].toLowerCase()) : PAWN;
  const file = san[2] ? san[2].charCodeAt(0) - 97 : -1,
    rank = san[3] ? san[3].charCodeAt(0) - 49 : -1,
    capture = san[4] !== undefined,
    to = parseSquare(san[5]),
    promo = san[6] ? typeOfSymbol(san[6].toLowerCase()) : 0;
  if (type === PAWN && rank >= 0) return 0; // a pawn's from-square is long algebraic (e2e4)
  let found = 0;
  for (let i = 0; i < n; i++) {
    const m = legal[i],
      from = moveFrom(m);
    if (moveTo(m) !== to || moveKind(m) === KIND_CASTLE || pieceType(pos.board[from]) !== type) continue;
    if ((file >= 0 && (from & 7) !== file) || (rank >= 0 && from >> 3 !== rank)) continue;
    if (movePromo(m) !== promo) continue;
    if (capture && pos.board[to] === 0 && moveKind(m) !== KIND_EN_PASSANT) continue;
    if (found !== 0) return 0; // ambiguous
    found = m;
  }
  return found;
}

/**
 * The move from `from` to `to`: a castle by the king's target square (classical chess) or by
 * king-takes-own-rook; `promo` the promotion piece type (0 none, -1 none given). `looseExtra`:
 * a promotion piece given for a move that is not a promotion is ignored (move objects) rather
 * than refused (text).
 */
function bySquares(
  pos: Position,
  legal: Int32Array,
  n: number,
  from: number,
  to: number,
  promo: number,
  looseExtra: boolean,
  chess960: boolean,
): number {
  let castle = 0,
    castleByTarget = 0;
  for (let i = 0; i < n; i++) {
    const m = legal[i];
    if (moveFrom(m) !== from) continue;
    if (moveKind(m) === KIND_CASTLE) {
      if (promo > 0 && !looseExtra) continue;
      if (pos.castleRookFrom(m) === to || (!chess960 && moveTo(m) === to)) castle = m;
      else if (chess960 && moveTo(m) === to && from !== to) castleByTarget = m;
      continue;
    }
    if (moveTo(m) !== to) continue;
    const p = movePromo(m);
    if (p !== 0 ? p === promo : promo <= 0 || looseExtra) return m;
  }
  // In Chess960 the king's target square names the castle only when no ordinary king move has it (we got here).
  return castle !== 0 ? castle : castleByTarget;
}
