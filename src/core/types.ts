/**
 * Basic chess vocabulary shared by every module.
 *
 * Squares are 0..63 with a1 = 0, b1 = 1, ..., h8 = 63 (rank-major, little-endian files).
 * Piece types follow the matrix model's encoding (seed 000): |M| = 1 pawn, 2 bishop,
 * 3 knight, 4 rook, 5 queen, 6 king, so the core and the matrix board agree on numbers.
 * A piece code is `type | color << 3`: white pawn 1 … white king 6, black pawn 9 … black king 14.
 */
export const WHITE = 0;
export const BLACK = 1;
export type Color = 0 | 1;

export const NO_PIECE_TYPE = 0;
export const PAWN = 1;
export const BISHOP = 2;
export const KNIGHT = 3;
export const ROOK = 4;
export const QUEEN = 5;
export const KING = 6;
export type PieceType = 1 | 2 | 3 | 4 | 5 | 6;

export const NO_PIECE = 0;
export const makePiece = (color: number, type: number): number => type | (color << 3);
export const pieceType = (piece: number): number => piece & 7;
export const pieceColor = (piece: number): number => piece >> 3;

export const NO_SQUARE = 64;
export const FILE_NAMES = 'abcdefgh';
export const fileOf = (sq: number): number => sq & 7;
export const rankOf = (sq: number): number => sq >> 3;
export const squareAt = (file: number, rank: number): number => (rank << 3) | file;

export function squareName(sq: number): string {
  return FILE_NAMES[sq & 7] + String((sq >> 3) + 1);
}

/** Parses "e4" into 28; returns -1 when the text is not a square. */
export function parseSquare(text: string): number {
  if (text.length !== 2) return -1;
  const f = text.charCodeAt(0) - 97;
  const r = text.charCodeAt(1) - 49;
  if (f < 0 || f > 7 || r < 0 || r > 7) return -1;
  return (r << 3) | f;
}

/** FEN letters indexed by piece code (white upper case). */
export const PIECE_LETTERS = ' PBNRQK  pbnrqk ';
export const TYPE_LETTERS = ' pbnrqk';
export const PIECE_NAMES = ['', 'pawn', 'bishop', 'knight', 'rook', 'queen', 'king'] as const;

export function pieceFromLetter(ch: string): number {
  const i = PIECE_LETTERS.indexOf(ch);
  return i > 0 && ch !== ' ' ? i : NO_PIECE;
}

// Castling rights bits.
export const WHITE_OO = 1;
export const WHITE_OOO = 2;
export const BLACK_OO = 4;
export const BLACK_OOO = 8;

/** A search score as UCI reports it: centipawns from the side to move, or moves to mate (negative: being mated). */
export type Score = { cp: number } | { mate: number };
