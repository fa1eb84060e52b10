/**
 * matrix-chess: the library API. `Chess` (chess.js's API on our core, from src/compat) is the
 * convenient string-based front door; the core (Position, move generation, perft) and the engine
 * are exported for those who want integers and speed.
 */
export {
  Chess,
  Move,
  validateFen,
  type ChessOptions,
  type MovesOptions,
  type Piece,
  type PieceSymbol,
  type Square,
} from './compat/index.js';
export { chess960StartFen, chess960BackRank, CLASSICAL_CHESS960_INDEX } from './core/chess960.js';
export { Position } from './core/position.js';
export { FenError, START_FEN, parseFen, makeFen, type FenField, type FenSetup } from './core/fen.js';
export { MoveError, parseUciMove, parseSan, moveToSan, moveToUciIn, legalMoveList } from './core/notation.js';
export { moveToUci, moveFrom, moveTo, movePromo, moveKind, makeMove } from './core/move.js';
export { gameStatus, isInsufficientMaterial, GAME_END_TEXT, type GameStatus, type GameEnd } from './core/status.js';
export { MoveGenerator, defaultGenerator, generateLegalMoves, MAX_MOVES } from './core/movegen.js';
export { perft, perftDivide } from './core/perft.js';
export { magicAttacks } from './core/magic.js';
export { rayWalkAttacks, type SliderAttacks } from './core/slider-attacks.js';
export type { LegalMoveGenerator } from './core/backend.js';
export * from './core/types.js';

// The playing engine.
export {
  Engine,
  evaluate,
  evaluateMaterialPst,
  runBench,
  type EngineOptions,
  type Score,
  type SearchHooks,
  type SearchInfo,
  type SearchLimits,
  type SearchResult,
} from './engine/index.js';

export type { SpawnHelper } from './engine/smp.js';

// The learned evaluation (new NnueEvaluator(decodeNetwork(bytes), kernel), or loadNnue() on Node below).
export { NnueEvaluator, describeNnue } from './engine/nnue/evaluator.js';
export { NnueFileError, decodeNetwork, encodeNetwork, type NnueNetwork } from './engine/nnue/network.js';

// Backends by name (loadBackend with a loader for the BNN weights; getBackend on Node below), and the matrix model as a namespace.
export { loadBackend, BACKEND_NAMES, BackendError, type BackendLoaders, type BackendName } from './backends.js';
export * as matrix from './matrix/index.js';

// Node only (the package's files, worker threads): the *-node.ts modules.
// Lazy SMP: new Engine({ threads: 2, spawnHelper: spawnNodeHelper }).
export { spawnNodeHelper } from './engine/smp-node.js';
// The shipped network: new Engine({ nnue: loadNnue() }).
export { loadNnue, nnueFromNetwork, NnueKernelMissing } from './engine/nnue/load-node.js';
// A backend by name, the BNN weights from the package: getBackend('bnn').
export { getBackend } from './backends-node.js';

// Game analysis: annotated PGN, lichess-style judgements and accuracy (docs/analysis.md).
export {
  analyseGame,
  analysePgnGame,
  formatEval,
  type AnalysisOptions,
  type GameAnalysis,
  type MoveAnalysis,
  type SideSummary,
} from './analysis/analyse-game.js';
export { winPercent, winningChances, moveAccuracy, gameAccuracy, judgeMove, type Judgement } from './analysis/win-probability.js';
export {
  PgnError,
  parsePgn,
  parsePgnGame,
  readPgn,
  streamPgn,
  replayPgnGame,
  makePgn,
  makePgnGames,
  newPgnGame,
  type PgnGame,
  type PgnMove,
  type PgnEval,
  type PgnResult,
} from './core/pgn/index.js';
