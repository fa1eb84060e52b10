/**
 * matrix-chess/core: the rules alone (no engine, no Node APIs), for programs that only need
 * positions, legal moves, notation, game status, perft and PGN.
 */
export { Position } from './position.js';
export { FenError, START_FEN, parseFen, makeFen, type FenField, type FenSetup } from './fen.js';
export {
  MoveError,
  parseUciMove,
  parseSan,
  moveToSan,
  moveToSanAmong,
  moveToUciIn,
  movesToUciIn,
  legalMoveList,
  replayUciMoves,
  playUciMoves,
} from './notation.js';
export { chess960StartFen, chess960BackRank, CLASSICAL_CHESS960_INDEX, CHESS960_POSITIONS } from './chess960.js';
export { MOVE_NONE, moveToUci, moveFrom, moveTo, movePromo, moveKind, makeMove } from './move.js';
export { gameStatus, isInsufficientMaterial, GAME_END_TEXT, type GameStatus, type GameEnd } from './status.js';
export { MoveGenerator, defaultGenerator, generateLegalMoves, MAX_MOVES } from './movegen.js';
export { perft, perftDivide } from './perft.js';
export { PerftTable } from './perft-table.js';
export { magicAttacks } from './magic.js';
export { rayWalkAttacks, type SliderAttacks } from './slider-attacks.js';
export type { LegalMoveGenerator, MoveTree } from './backend.js';
export * from './pgn/index.js';
export { Sfc32 } from './rng.js';
export * from './types.js';
