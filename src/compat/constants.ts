/**
 * chess.js 1.x's vocabulary: colours and pieces as letters, squares as names, its constants,
 * and the conversions between them and the core's numbers (squares a1 = 0, piece codes
 * `type | colour << 3`).
 */
import { START_FEN } from '../core/fen.js';
import * as core from '../core/types.js';

export const WHITE = 'w';
export const BLACK = 'b';
export const PAWN = 'p';
export const KNIGHT = 'n';
export const BISHOP = 'b';
export const ROOK = 'r';
export const QUEEN = 'q';
export const KING = 'k';

export type Color = 'w' | 'b';
export type PieceSymbol = 'p' | 'n' | 'b' | 'r' | 'q' | 'k';
export type File = 'a' | 'b' | 'c' | 'd' | 'e' | 'f' | 'g' | 'h';
export type Rank = '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8';
export type Square = `${File}${Rank}`;
export interface Piece {
  color: Color;
  type: PieceSymbol;
}

export const DEFAULT_POSITION = START_FEN;

/** The squares a8, b8, … h8, a7, … h1: chess.js's order, the board seen from White's side, row by row. */
export const SQUARES: Square[] = [];
for (let rank = 8; rank >= 1; rank--) for (const file of 'abcdefgh') SQUARES.push(`${file}${rank}` as Square);

/** The seven tags every PGN game has, with their "unknown" values. */
export const SEVEN_TAG_ROSTER: Record<string, string> = {
  Event: '?',
  Site: '?',
  Date: '????.??.??',
  Round: '?',
  White: '?',
  Black: '?',
  Result: '*',
};

/** The PGN standard's supplemental tags (section 9), which the deprecated `header()` lists as null when unset. */
export const SUPPLEMENTAL_TAGS = [
  'WhiteTitle',
  'BlackTitle',
  'WhiteElo',
  'BlackElo',
  'WhiteUSCF',
  'BlackUSCF',
  'WhiteNA',
  'BlackNA',
  'WhiteType',
  'BlackType',
  'EventDate',
  'EventSponsor',
  'Section',
  'Stage',
  'Board',
  'Opening',
  'Variation',
  'SubVariation',
  'ECO',
  'NIC',
  'Time',
  'UTCTime',
  'UTCDate',
  'TimeControl',
  'SetUp',
  'FEN',
  'Termination',
  'Annotator',
  'Mode',
  'PlyCount',
] as const;

/** Core piece type (1 pawn … 6 king) → chess.js symbol. */
export const SYMBOL_OF_TYPE: readonly PieceSymbol[] = ['p', 'p', 'b', 'n', 'r', 'q', 'k'];

/** chess.js symbol → core piece type, 0 for anything else. */
export function typeOfSymbol(symbol: unknown): number {
  switch (symbol) {
    case 'p':
      return core.PAWN;
    case 'n':
      return core.KNIGHT;
    case 'b':
      return core.BISHOP;
    case 'r':
      return core.ROOK;
    case 'q':
      return core.QUEEN;
    case 'k':
      return core.KING;
    default:
      return 0;
  }
}

/** chess.js colour → core colour (0 white, 1 black), -1 for anything else. */
export function colorIndex(color: unknown): number {
  return color === 'w' ? 0 : color === 'b' ? 1 : -1;
}

/** A square name ('e4', lower case as chess.js requires) → core square, -1 when it is not one. */
export function squareIndex(square: unknown): number {
  return typeof square === 'string' ? core.parseSquare(square) : -1;
}
