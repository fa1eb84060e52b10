/**
 * matrix-chess/compat: chess.js 1.x's API on the Matrix Chess core, so code written against
 * chess.js switches with one import line (`import { Chess } from 'matrix-chess/compat'`).
 * What differs, and why, is in docs/coming-from-chess-js.md.
 */
export { Chess, type BoardCell, type ChessOptions, type MovesOptions } from './chess.js';
export { Move, type MoveFields } from './move.js';
export type { MoveObject } from './parse-move.js';
export { validateFen } from './fen.js';
export {
  WHITE,
  BLACK,
  PAWN,
  KNIGHT,
  BISHOP,
  ROOK,
  QUEEN,
  KING,
  DEFAULT_POSITION,
  SQUARES,
  SEVEN_TAG_ROSTER,
  type Color,
  type File,
  type Rank,
  type Piece,
  type PieceSymbol,
  type Square,
} from './constants.js';
