/**
 * A board being set up: what chess.js lets a program hold between edits (`clear`, `put`,
 * `remove`) or load with `skipValidation`, which need not be a legal chess position (no king, two
 * kings, the side not to move in check). The core's Position holds only legal positions, so the
 * Chess class keeps such a board here, reads it back (FEN, squares, attacks) and hands it to a
 * Position again as soon as it is legal.
 */
import type { Position } from '../core/position.js';
import { FenError, castlingField, fenPlacement } from '../core/fen.js';
import { KING, NO_SQUARE, PAWN, ROOK, WHITE, makePiece, parseSquare, pieceFromLetter } from '../core/types.js';

export interface BoardSetup {
  /** Piece codes, a1 = 0 … h8 = 63. */
  board: Uint8Array;
  side: number;
  /** Castling rights (bit 0 white O-O, 1 white O-O-O, 2 black O-O, 3 black O-O-O) and each right's rook square. */
  castling: number;
  castleRook: Uint8Array;
  ep: number;
  halfmove: number;
  fullmove: number;
}

export function emptySetup(): BoardSetup {
  return {
    board: new Uint8Array(64),
    side: WHITE,
    castling: 0,
    castleRook: Uint8Array.of(7, 0, 63, 56),
    ep: NO_SQUARE,
    halfmove: 0,
    fullmove: 1,
  };
}

export function setupOf(pos: Position): BoardSetup {
  return {
    board: pos.board.slice(),
    side: pos.side,
    castling: pos.castling,
    castleRook: pos.castleRook.slice(),
    ep: pos.ep,
    halfmove: pos.halfmove,
    fullmove: pos.fullmove,
  };
}

export function setupFen(s: BoardSetup): string {
  const castling = castlingField(s.castling, s.castleRook, (sq) => s.board[sq], false);
  const ep = s.ep === NO_SQUARE ? '-' : 'abcdefgh'[s.ep & 7] + ((s.ep >> 3) + 1);
  return `${fenPlacement(s.board)} ${s.side === WHITE ? 'w' : 'b'} ${castling} ${ep} ${s.halfmove} ${s.fullmove}`;
}

/** The squares holding a king of `color`. */
function kingSquares(s: BoardSetup, color: number): number[] {
  const king = makePiece(color, KING),
    out: number[] = [];
  for (let sq = 0; sq < 64; sq++) if (s.board[sq] === king) out.push(sq);
  return out;
}

/**
 * A FEN read for its syntax only (what skipValidation still requires): eight ranks of eight
 * squares, 'w' or 'b', castling letters, an en-passant square or '-', whole-number clocks.
 * Castling letters name rooks as X-FEN does (K: the outermost rook on the h-side of the king;
 * with `chess960` also rook files A-H); tidySetup then drops what the board cannot hold.
 */
export function readSetup(fen: string, chess960: boolean): BoardSetup {
  if (typeof fen !== 'string') throw new FenError('fen', 'expected a string');
  const fields = fen.trim().split(/\s+/);
  if (fields.length < 4 || fields.length > 6 || fields[0] === '')
    throw new FenError('fen', `expected 6 space-separated fields (4 are accepted), got ${fields[0] === '' ? 0 : fields.length}`);
  const [placement, side, castling, ep, half = '0', full = '1'] = fields;
  const s = emptySetup();
  const ranks = placement.split('/');
  if (ranks.length !== 8) throw new FenError('placement', `expected 8 ranks separated by '/', got ${ranks.length}`);
  ranks.forEach((text, i) => {
    const rank = 7 - i;
    let file = 0;
    for (const ch of text) {
      if (ch >= '1' && ch <= '8') file += ch.charCodeAt(0) - 48;
      else {
        const piece = pieceFromLetter(ch);
        if (piece === 0)
          throw new FenError('placement', `bad piece letter '${ch}' in rank ${rank + 1} (expected one of PNBRQKpnbrqk or a digit 1-8)`);
        if (file < 8) s.board[rank * 8 + file] = piece;
        file++;
      }
      if (file > 8) throw new FenError('placement', `rank ${rank + 1} ('${text}') is too long: more than 8 squares`);
    }
    if (file < 8) throw new FenError('placement', `rank ${rank + 1} ('${text}') is too short: ${file} squares instead of 8`);
  });
  if (side !== 'w' && side !== 'b') throw new FenError('side', `expected 'w' or 'b', got '${side}'`);
  s.side = side === 'w' ? 0 : 1;
  if (castling !== '-') {
    if (!(chess960 ? /^[KQkqA-Ha-h]{1,4}$/ : /^[KQkq]{1,4}$/).test(castling))
      throw new FenError('castling', `expected '-' or ${chess960 ? 'rook files A-H/a-h or ' : ''}a subset of 'KQkq', got '${castling}'`);
    for (const ch of castling) addCastlingRight(s, ch, chess960);
  }
  if (ep !== '-') {
    s.ep = parseSquare(ep);
    if (s.ep < 0) throw new FenError('enPassant', `expected '-' or a square like e3, got '${ep}'`);
  }
  if (!/^\d+$/.test(half) || Number(half) > 1_000_000)
    throw new FenError('halfmove', `expected a whole number from 0 to 1000000, got '${half}'`);
  if (!/^\d+$/.test(full) || Number(full) < 1 || Number(full) > 1_000_000)
    throw new FenError('fullmove', `expected a whole number from 1 to 1000000, got '${full}'`);
  s.halfmove = Number(half);
  s.fullmove = Number(full);
  return s;
}

/**
 * Records the castling right of one FEN letter (K, Q, k, q; with `chess960` also a rook file),
 * if the board has a rook it can name; tidySetup checks the rest.
 */
export function addCastlingRight(s: BoardSetup, ch: string, chess960: boolean): void {
  const color = ch === ch.toUpperCase() ? 0 : 1,
    home = color === 0 ? 0 : 56,
    lower = ch.toLowerCase(),
    kings = kingSquares(s, color);
  const kingFile = kings.length === 1 && kings[0] >> 3 === home >> 3 ? kings[0] & 7 : 4;
  let file = -1;
  if (!chess960) file = lower === 'k' ? 7 : 0;
  else if (lower === 'k' || lower === 'q') {
    const rook = makePiece(color, ROOK);
    if (lower === 'k') for (let f = 7; f > kingFile && file < 0; f--) file = s.board[home + f] === rook ? f : -1;
    else for (let f = 0; f < kingFile && file < 0; f++) file = s.board[home + f] === rook ? f : -1;
  } else file = lower.charCodeAt(0) - 97;
  if (file < 0 || file === kingFile) return;
  const right = (color << 1) | (file > kingFile ? 0 : 1);
  s.castling |= 1 << right;
  s.castleRook[right] = home + file;
}

/**
 * Drops what the board contradicts, as chess.js does after an edit: a castling right whose king
 * (one, on its home rank; on the e-file outside Chess960) or rook has left, and an en-passant
 * square with no pawn that can just have stepped past it.
 */
export function tidySetup(s: BoardSetup, chess960: boolean): void {
  for (let right = 0; right < 4; right++) {
    if ((s.castling & (1 << right)) === 0) continue;
    const color = right >> 1,
      home = color === 0 ? 0 : 56,
      kings = kingSquares(s, color),
      rookSq = s.castleRook[right];
    const king = kings.length === 1 ? kings[0] : -1;
    const kingOk = king >= 0 && king >> 3 === home >> 3 && (chess960 || king === home + 4);
    const rookOk =
      s.board[rookSq] === makePiece(color, ROOK) &&
      (chess960 || rookSq === home + ((right & 1) === 0 ? 7 : 0)) &&
      ((right & 1) === 0) === rookSq > king;
    if (!kingOk || !rookOk) s.castling &= ~(1 << right);
  }
  if (s.ep !== NO_SQUARE) {
    const up = s.side === WHITE ? 8 : -8,
      rank = s.side === WHITE ? 5 : 2;
    const pawnSq = s.ep - up,
      origin = s.ep + up;
    if (s.ep >> 3 !== rank || s.board[pawnSq] !== makePiece(s.side ^ 1, PAWN) || s.board[s.ep] !== 0 || s.board[origin] !== 0)
      s.ep = NO_SQUARE;
  }
}
