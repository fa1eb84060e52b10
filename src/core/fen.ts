/**
 * FEN text: parseFen reads a FEN into a FenSetup record (what the text says, field by field) and
 * makeFen prints one; a FEN that cannot be a legal chess position throws FenError naming the
 * field. Every check the text and the board alone allow is made here; the one that needs attack
 * tables (the side not to move must not be in check) is Position.setup's, with the same error.
 */
import { BLACK, KING, NO_SQUARE, PAWN, PIECE_LETTERS, ROOK, WHITE, makePiece, parseSquare, squareName } from './types.js';
import { CORNER_ROOKS } from './zobrist.js';

export const START_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

export type FenField = 'fen' | 'placement' | 'side' | 'castling' | 'enPassant' | 'halfmove' | 'fullmove' | 'position';

/** A FEN that cannot be a legal chess position; `field` names the part that is wrong. */
export class FenError extends Error {
  override readonly name = 'FenError';
  constructor(
    readonly field: FenField,
    message: string,
  ) {
    super(`invalid FEN (${field}): ${message}`);
  }
}

/**
 * A position as a FEN states it: plain data (it crosses to a worker thread as it is), read by
 * Position.setup. A Position has the same fields, so makeFen prints either.
 */
export interface FenSetup {
  /** Piece codes by square, a1 = 0 … h8 = 63; 0 is empty. */
  board: Uint8Array;
  side: number;
  /** The castling rights held, one bit each: white O-O, white O-O-O, black O-O, black O-O-O. */
  castling: number;
  /** The castling rook's square of each right, by bit number (the corner rook for a right not held). */
  castleRook: Uint8Array;
  /** The en-passant target square, or NO_SQUARE. */
  ep: number;
  halfmove: number;
  fullmove: number;
}

/** Reads a FEN (4 to 6 fields; X-FEN or Shredder-FEN castling); throws FenError naming the field that is wrong. */
export function parseFen(fen: string): FenSetup {
  if (typeof fen !== 'string') throw new FenError('fen', 'expected a string');
  const fields = fen.trim().split(/\s+/);
  if (fields.length < 4 || fields.length > 6 || fields[0] === '') {
    throw new FenError('fen', `expected 6 space-separated fields (4 are accepted), got ${fields[0] === '' ? 0 : fields.length}`);
  }
  const [placement, sideText, castlingText, epText, half = '0', full = '1'] = fields;
  const board = new Uint8Array(64);
  const kingSq = [NO_SQUARE, NO_SQUARE];

  const ranks = placement.split('/');
  if (ranks.length !== 8) throw new FenError('placement', `expected 8 ranks separated by '/', got ${ranks.length}`);
  const kings = [0, 0];
  for (let i = 0; i < 8; i++) {
    const rank = 7 - i,
      text = ranks[i];
    let file = 0;
    for (const ch of text) {
      if (ch >= '1' && ch <= '8') {
        file += ch.charCodeAt(0) - 48;
      } else {
        const piece = PIECE_LETTERS.indexOf(ch);
        if (piece <= 0 || ch === ' ')
          throw new FenError('placement', `bad piece letter '${ch}' in rank ${rank + 1} (expected one of PNBRQKpnbrqk or a digit 1-8)`);
        if (file > 7) throw new FenError('placement', `rank ${rank + 1} ('${text}') is too long: more than 8 squares`);
        if ((piece & 7) === PAWN && (rank === 0 || rank === 7))
          throw new FenError(
            'position',
            `pawn on rank ${rank + 1} (${squareName(rank * 8 + file)}): pawns cannot stand on the first or last rank`,
          );
        if ((piece & 7) === KING) {
          kings[piece >> 3]++;
          kingSq[piece >> 3] = rank * 8 + file;
        }
        board[rank * 8 + file] = piece;
        file++;
      }
      if (file > 8) throw new FenError('placement', `rank ${rank + 1} ('${text}') is too long: more than 8 squares`);
    }
    if (file < 8) throw new FenError('placement', `rank ${rank + 1} ('${text}') is too short: ${file} squares instead of 8`);
  }
  if (kings[0] !== 1) throw new FenError('position', kings[0] === 0 ? 'white has no king' : `white has ${kings[0]} kings`);
  if (kings[1] !== 1) throw new FenError('position', kings[1] === 0 ? 'black has no king' : `black has ${kings[1]} kings`);

  if (sideText !== 'w' && sideText !== 'b') throw new FenError('side', `expected 'w' or 'b', got '${sideText}'`);
  const side = sideText === 'w' ? WHITE : BLACK;

  const castleRook = Uint8Array.from(CORNER_ROOKS);
  const castling = castlingText === '-' ? 0 : parseCastling(castlingText, board, kingSq, castleRook);

  let ep = NO_SQUARE;
  if (epText !== '-') {
    const sq = parseSquare(epText);
    if (sq < 0) throw new FenError('enPassant', `expected '-' or a square like e3, got '${epText}'`);
    const wantRank = side === WHITE ? 5 : 2;
    if (sq >> 3 !== wantRank)
      throw new FenError(
        'enPassant',
        `${epText} is impossible with ${side === WHITE ? 'white' : 'black'} to move (must be on rank ${wantRank + 1})`,
      );
    const pawnSq = side === WHITE ? sq - 8 : sq + 8,
      origin = side === WHITE ? sq + 8 : sq - 8;
    if (board[pawnSq] !== makePiece(side ^ 1, PAWN))
      throw new FenError('enPassant', `${epText} is impossible: no pawn that just moved two squares on ${squareName(pawnSq)}`);
    if (board[sq] !== 0 || board[origin] !== 0)
      throw new FenError(
        'enPassant',
        `${epText} is impossible: ${squareName(sq)} and ${squareName(origin)} must be empty after a double step`,
      );
    ep = sq;
  }

  if (!/^\d+$/.test(half) || Number(half) > 1_000_000)
    throw new FenError('halfmove', `expected a whole number from 0 to 1000000, got '${half}'`);
  if (!/^\d+$/.test(full) || Number(full) < 1 || Number(full) > 1_000_000)
    throw new FenError('fullmove', `expected a whole number from 1 to 1000000, got '${full}'`);
  return { board, side, castling, castleRook, ep, halfmove: Number(half), fullmove: Number(full) };
}

/**
 * The castling field: KQkq (X-FEN: the outermost rook on that side of the king) and rook files
 * A-H / a-h (Shredder-FEN, or X-FEN when the castling rook is not the outermost one). Fills
 * `castleRook` and returns the rights.
 */
function parseCastling(text: string, board: Uint8Array, kingSq: readonly number[], castleRook: Uint8Array): number {
  if (!/^[KQkqA-Ha-h]{1,4}$/.test(text))
    throw new FenError('castling', `expected '-', rook files A-H/a-h (Chess960) or a subset of 'KQkq', got '${text}'`);
  let castling = 0;
  for (const ch of text) {
    const color = ch === ch.toUpperCase() ? WHITE : BLACK,
      name = color === WHITE ? 'white' : 'black',
      base = color === WHITE ? 0 : 56,
      king = kingSq[color],
      rook = makePiece(color, ROOK);
    if (king >> 3 !== base >> 3) throw new FenError('castling', `right '${ch}' needs the ${name} king on rank ${color === WHITE ? 1 : 8}`);
    const kf = king & 7,
      lower = ch.toLowerCase();
    let file = -1;
    if (lower === 'k') {
      for (let f = 7; f > kf && file < 0; f--) if (board[base + f] === rook) file = f;
    } else if (lower === 'q') {
      for (let f = 0; f < kf && file < 0; f++) if (board[base + f] === rook) file = f;
    } else {
      file = lower.charCodeAt(0) - 97;
      if (board[base + file] !== rook || file === kf) file = -1;
    }
    if (file < 0) {
      const where =
        lower === 'k' ? 'on the h-side of' : lower === 'q' ? 'on the a-side of' : `on ${lower}${color === WHITE ? 1 : 8} beside`;
      throw new FenError('castling', `right '${ch}' needs a ${name} rook ${where} the king on ${squareName(king)}`);
    }
    const right = (color === WHITE ? 0 : 2) | (file > kf ? 0 : 1);
    if (castling & (1 << right))
      throw new FenError('castling', `right '${ch}' repeats ${name}'s ${file > kf ? 'king' : 'queen'}-side right, got '${text}'`);
    castling |= 1 << right;
    castleRook[right] = base + file;
  }
  return castling;
}

/** The FEN of a setup (or of a Position): X-FEN castling, or Shredder-FEN castling (rook files) when `shredder`. */
export function makeFen(s: Readonly<FenSetup>, shredder = false): string {
  const castling = castlingField(s.castling, s.castleRook, (sq) => s.board[sq], shredder);
  return `${fenPlacement(s.board)} ${s.side === WHITE ? 'w' : 'b'} ${castling} ${s.ep === NO_SQUARE ? '-' : squareName(s.ep)} ${s.halfmove} ${s.fullmove}`;
}

/**
 * The FEN castling field of rights `castling` with rooks on `castleRook`: X-FEN (KQkq, a file
 * letter only when the castling rook is not the outermost rook on its side of the king, so
 * classical positions print exactly KQkq) or, with `shredder`, Shredder-FEN (rook files, HAha).
 */
export function castlingField(castling: number, castleRook: ArrayLike<number>, pieceAt: (sq: number) => number, shredder: boolean): string {
  let out = '';
  for (let right = 0; right < 4; right++) {
    if ((castling & (1 << right)) === 0) continue;
    const color = right >> 1,
      rookSq = castleRook[right],
      base = color === WHITE ? 0 : 56,
      rook = makePiece(color, ROOK);
    let outermost = true;
    if ((right & 1) === 0) {
      for (let sq = rookSq + 1; sq < base + 8; sq++) if (pieceAt(sq) === rook) outermost = false;
    } else {
      for (let sq = base; sq < rookSq; sq++) if (pieceAt(sq) === rook) outermost = false;
    }
    const letter = !shredder && outermost ? ((right & 1) === 0 ? 'k' : 'q') : 'abcdefgh'[rookSq & 7];
    out += color === WHITE ? letter.toUpperCase() : letter;
  }
  return out || '-';
}

/** The piece-placement field of a FEN for a board of piece codes indexed a1 = 0 … h8 = 63. */
export function fenPlacement(board: ArrayLike<number>): string {
  let placement = '';
  for (let rank = 7; rank >= 0; rank--) {
    let empty = 0;
    for (let file = 0; file < 8; file++) {
      const p = board[rank * 8 + file];
      if (p === 0) {
        empty++;
        continue;
      }
      if (empty) {
        placement += empty;
        empty = 0;
      }
      placement += PIECE_LETTERS[p];
    }
    if (empty) placement += empty;
    if (rank) placement += '/';
  }
  return placement;
}
