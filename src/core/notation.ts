/**
 * Move notation: UCI (e2e4, e7e8q) parsing against the legal moves of a position, and SAN
 * (Nf3, exd5, O-O, e8=Q+) for PGN and display.
 */
import { MAX_MOVES, defaultGenerator } from './movegen.js';
import { KIND_CASTLE, moveFrom, moveKind, movePromo, moveTo, moveToUci } from './move.js';
import { kingAttacksHi, kingAttacksLo, knightAttacksHi, knightAttacksLo } from './attacks.js';
import { bishopIndex, bishopTable, rookIndex, rookTable } from './magic.js';
import { Position } from './position.js';
import { BISHOP, FILE_NAMES, KING, KNIGHT, PAWN, PIECE_NAMES, ROOK, TYPE_LETTERS, squareName } from './types.js';

/** A move that is malformed or not legal in the position. */
export class MoveError extends Error {
  override readonly name = 'MoveError';
  constructor(
    readonly move: string,
    message: string,
  ) {
    super(message);
  }
}

const UCI_MOVE = /^([a-h][1-8])([a-h][1-8])([qrbn])?$/;

/** The text as an error message quotes it: control characters and line breaks escaped, so the message stays one line. */
function quoted(text: string): string {
  return `'${text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}'`;
}

/** moveToSan's scratch lists: the rivals of a piece move, and the replies that tell check from mate. */
const rivalBuffer = new Int32Array(MAX_MOVES);
const replyBuffer = new Int32Array(MAX_MOVES);

export function legalMoveList(pos: Position): number[] {
  const buf = new Int32Array(MAX_MOVES);
  const n = defaultGenerator.generate(pos, buf, 0);
  return Array.from(buf.subarray(0, n));
}

/**
 * UCI text of a legal move of `pos` (before it is made): moveToUci's, except that with `chess960`
 * a castle is written king-takes-own-rook (e1h1), as UCI_Chess960 asks, since in Chess960 the
 * king's target square alone can be an ordinary king move or no move at all.
 */
export function moveToUciIn(pos: Position, m: number, chess960: boolean): string {
  if (!chess960 || moveKind(m) !== KIND_CASTLE) return moveToUci(m);
  return squareName(moveFrom(m)) + squareName(pos.castleRookFrom(m));
}

/** UCI text of a line of moves played from `pos` (a PV), each written as moveToUciIn does; `pos` is not changed. */
export function movesToUciIn(pos: Position, moves: readonly number[], chess960: boolean): string[] {
  const walk = pos.clone();
  return moves.map((m) => {
    const text = moveToUciIn(walk, m, chess960);
    walk.makeMove(m);
    return text;
  });
}

/**
 * Parses a UCI move and returns the legal move it names; throws MoveError otherwise. Castles are
 * king-takes-own-rook with `chess960` (e1h1); without it the king's move (e1g1), and
 * king-takes-own-rook is accepted too when no other move has that text.
 */
export function parseUciMove(pos: Position, text: string, chess960 = false): number {
  const t = text.trim();
  const m = UCI_MOVE.exec(t);
  if (!m) throw new MoveError(t, `malformed move ${quoted(t)}: expected UCI notation like e2e4 or e7e8q`);
  const legal = legalMoveList(pos);
  for (const move of legal) if (moveToUciIn(pos, move, chess960) === t) return move;
  if (!chess960) for (const move of legal) if (moveToUciIn(pos, move, true) === t) return move;
  const from = m[1];
  const fromSq = from.charCodeAt(0) - 97 + (from.charCodeAt(1) - 49) * 8;
  const piece = pos.board[fromSq];
  if (piece === 0) throw new MoveError(t, `illegal move '${t}': no piece on ${from}`);
  if (piece >> 3 !== pos.side)
    throw new MoveError(t, `illegal move '${t}': the piece on ${from} is not ${pos.side === 0 ? 'white' : 'black'}'s`);
  if ((piece & 7) === PAWN && !m[3] && legalMoveList(pos).some((x) => moveToUci(x) === t + 'q')) {
    throw new MoveError(t, `illegal move '${t}': a promotion needs a piece letter, e.g. ${t}q`);
  }
  throw new MoveError(t, `illegal move '${t}' in this position${pos.inCheck() ? ' (the king is in check)' : ''}`);
}

/**
 * A game given as a start FEN and UCI moves (the UCI `position` command, the web worker's
 * request), played on one Position so its history (repetitions) is there for the search.
 * `chess960`: castles are written king-takes-own-rook (UCI_Chess960).
 * Throws FenError, or MoveError naming the move's place in the list.
 */
export function replayUciMoves(fen: string, moves: readonly string[], chess960 = false): Position {
  const pos = Position.fromFen(fen);
  playUciMoves(pos, moves, chess960);
  return pos;
}

/** Plays UCI moves on `pos` in turn and returns them as moves of ours; throws MoveError naming the move's place in the list. */
export function playUciMoves(pos: Position, moves: readonly string[], chess960 = false): number[] {
  return moves.map((text, k) => {
    let m: number;
    try {
      m = parseUciMove(pos, text, chess960);
    } catch (err) {
      if (err instanceof MoveError) throw new MoveError(text, `move ${k + 1} of the list: ${err.message}`);
      throw err;
    }
    pos.makeMove(m);
    return m;
  });
}

/** SAN of a legal move in `pos` (with + or # suffix). */
export function moveToSan(pos: Position, move: number): string {
  const type = pos.board[moveFrom(move)] & 7;
  const n = type !== PAWN && type !== KING ? defaultGenerator.generate(pos, rivalBuffer, 0) : 0;
  return moveToSanAmong(pos, move, rivalBuffer, n);
}

/**
 * SAN of a legal move in `pos`, given every legal move of `pos` in legal[0..n) (the rivals a
 * piece move is told apart from), so SAN for a whole move list costs one generation.
 */
export function moveToSanAmong(pos: Position, move: number, legal: ArrayLike<number>, n: number): string {
  const from = moveFrom(move),
    to = moveTo(move),
    promo = movePromo(move),
    kind = moveKind(move);
  const piece = pos.board[from],
    type = piece & 7;
  let san: string;
  if (kind === KIND_CASTLE) {
    san = (to & 7) === 6 ? 'O-O' : 'O-O-O'; // by the target file: in Chess960 the king may not move, or move either way
  } else {
    const capture = pos.board[to] !== 0 || (type === PAWN && (from & 7) !== (to & 7));
    if (type === PAWN) {
      san = (capture ? FILE_NAMES[from & 7] + 'x' : '') + squareName(to);
      if (promo) san += '=' + TYPE_LETTERS[promo].toUpperCase();
    } else {
      san = TYPE_LETTERS[type].toUpperCase();
      if (type !== KING) {
        // Disambiguate among other pieces of the same kind that can reach the same square.
        let rivals = false,
          sameFile = false,
          sameRank = false;
        for (let i = 0; i < n; i++) {
          const m = legal[i],
            f = moveFrom(m);
          if (m === move || moveTo(m) !== to || pos.board[f] !== piece) continue;
          rivals = true;
          if ((f & 7) === (from & 7)) sameFile = true;
          if (f >> 3 === from >> 3) sameRank = true;
        }
        if (rivals) {
          if (!sameFile) san += FILE_NAMES[from & 7];
          else if (!sameRank) san += String((from >> 3) + 1);
          else san += squareName(from);
        }
      }
      san += (capture ? 'x' : '') + squareName(to);
    }
  }
  pos.makeMove(move);
  if (pos.inCheck()) san += defaultGenerator.generate(pos, replyBuffer, 0) === 0 ? '#' : '+';
  pos.unmakeMove();
  return san;
}

/** parseSan's scratch list of the legal moves. */
const sanBuffer = new Int32Array(MAX_MOVES);
const PIECE_SAN = /^([NBRQK])([a-h])?([1-8])?(x?)([a-h])([1-8])$/;
const PAWN_SAN = /^([a-h])(?:x([a-h]))?([1-8])(?:=?([NBRQnbrq]))?$/;
const COLOR_NAMES = ['white', 'black'] as const;

/**
 * Parses SAN (as PGN writes it: Nf3, exd5, O-O, e8=Q, with optional +, #, !, ?) to a legal
 * move, from one generation of the legal moves: the text is read by its parts (piece, origin
 * file or rank, target, promotion) and must name exactly one legal move. Redundant
 * disambiguation (Ngf3), castling with zeros, a promotion without '=' and UCI text are accepted.
 * Throws MoveError saying why the text names no move (or more than one).
 */
export function parseSan(pos: Position, text: string): number {
  const clean = text.trim().replace(/[+#!?]+$/, '');
  if (clean === '') throw new MoveError(text, 'empty move');
  const n = defaultGenerator.generate(pos, sanBuffer, 0);
  const color = COLOR_NAMES[pos.side];
  if (clean === 'O-O' || clean === 'O-O-O' || clean === '0-0' || clean === '0-0-0') {
    const king = clean.length === 3;
    for (let i = 0; i < n; i++) {
      const m = sanBuffer[i];
      if (moveKind(m) === KIND_CASTLE && ((moveTo(m) & 7) === 6) === king) return m;
    }
    const right = 1 << ((pos.side << 1) | (king ? 0 : 1));
    const wing = king ? 'kingside' : 'queenside';
    throw new MoveError(
      text,
      `illegal move ${quoted(clean)}: ${
        (pos.castling & right) === 0
          ? `${color} has no ${wing} castling right`
          : pos.inCheck()
            ? `${color} cannot castle out of check`
            : `the ${color} king's path is blocked or attacked`
      }`,
    );
  }
  const piece = PIECE_SAN.exec(clean);
  const pawn = piece ? null : PAWN_SAN.exec(clean);
  if ((!piece && !pawn) || (pawn && pawn[2] === pawn[1])) {
    if (UCI_MOVE.test(clean)) return parseUciMove(pos, clean);
    throw new MoveError(text, `illegal or unknown move ${quoted(text.trim())} in this position`);
  }
  let type: number, fromFile: number, fromRank: number, to: number, promo: number;
  if (piece) {
    type = TYPE_LETTERS.indexOf(piece[1].toLowerCase());
    fromFile = piece[2] ? piece[2].charCodeAt(0) - 97 : -1;
    fromRank = piece[3] ? piece[3].charCodeAt(0) - 49 : -1;
    to = piece[5].charCodeAt(0) - 97 + (piece[6].charCodeAt(0) - 49) * 8;
    promo = 0;
  } else {
    type = PAWN;
    fromFile = pawn![1].charCodeAt(0) - 97;
    fromRank = -1;
    to = (pawn![2] ?? pawn![1]).charCodeAt(0) - 97 + (pawn![3].charCodeAt(0) - 49) * 8;
    promo = pawn![4] ? TYPE_LETTERS.indexOf(pawn![4].toLowerCase()) : 0;
  }
  let found = 0,
    count = 0,
    promotions = 0;
  for (let i = 0; i < n; i++) {
    const m = sanBuffer[i],
      from = moveFrom(m);
    if (moveTo(m) !== to || moveKind(m) === KIND_CASTLE || (pos.board[from] & 7) !== type) continue;
    if ((fromFile >= 0 && (from & 7) !== fromFile) || (fromRank >= 0 && from >> 3 !== fromRank)) continue;
    if (movePromo(m) !== promo) {
      if (promo === 0 && movePromo(m) !== 0) promotions++;
      continue;
    }
    found = m;
    count++;
  }
  if (count === 1) return found;
  const shown = quoted(clean);
  if (count > 1) {
    const from: string[] = [];
    for (let i = 0; i < n; i++) {
      const m = sanBuffer[i],
        f = moveFrom(m);
      if (
        moveTo(m) === to &&
        (pos.board[f] & 7) === type &&
        (fromFile < 0 || (f & 7) === fromFile) &&
        (fromRank < 0 || f >> 3 === fromRank)
      )
        from.push(squareName(f));
    }
    throw new MoveError(
      text,
      `ambiguous move ${shown}: the ${PIECE_NAMES[type]}s on ${from.join(' and ')} can all move to ${squareName(to)}`,
    );
  }
  if (promotions > 0) throw new MoveError(text, `illegal move ${shown}: a promotion needs a piece, e.g. ${clean}=Q`);
  throw new MoveError(text, `illegal move ${shown}: ${whyNot(pos, type, fromFile, fromRank, to, color)}`);
}

/** Why no legal move of a `type` piece goes to `to`: no such piece reaches it, or every one that does would leave the king in check. */
function whyNot(pos: Position, type: number, fromFile: number, fromRank: number, to: number, color: string): string {
  const target = pos.board[to];
  const name = `${color} ${PIECE_NAMES[type]}`;
  if (target !== 0 && target >> 3 === pos.side) return `${squareName(to)} holds a ${color} ${PIECE_NAMES[target & 7]}`;
  if (type !== PAWN) {
    const occLo = pos.colorLo[0] | pos.colorLo[1],
      occHi = pos.colorHi[0] | pos.colorHi[1];
    const reach = new Int32Array(2);
    for (let from = 0; from < 64; from++) {
      if (pos.board[from] !== ((pos.side << 3) | type)) continue;
      if ((fromFile >= 0 && (from & 7) !== fromFile) || (fromRank >= 0 && from >> 3 !== fromRank)) continue;
      if (type === KNIGHT) {
        reach[0] = knightAttacksLo[from];
        reach[1] = knightAttacksHi[from];
      } else if (type === KING) {
        reach[0] = kingAttacksLo[from];
        reach[1] = kingAttacksHi[from];
      } else {
        reach[0] = reach[1] = 0;
        if (type !== BISHOP) {
          const i = rookIndex(from, occLo, occHi);
          reach[0] |= rookTable[i];
          reach[1] |= rookTable[i + 1];
        }
        if (type !== ROOK) {
          const i = bishopIndex(from, occLo, occHi);
          reach[0] |= bishopTable[i];
          reach[1] |= bishopTable[i + 1];
        }
      }
      if ((to < 32 ? reach[0] >>> to : reach[1] >>> (to - 32)) & 1)
        return type === KING
          ? `the ${color} king would be in check on ${squareName(to)}`
          : `the ${name} on ${squareName(from)} would leave its king in check`;
    }
  }
  return `no ${name} can move to ${squareName(to)}${pos.inCheck() ? ` (${color} is in check)` : ''}`;
}
