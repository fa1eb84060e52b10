/**
 * matrix-chess: the library's front door, small on purpose (docs/library.md). Chess (chess.js's
 * API on our core), the engine on another thread (createEngine: a Web Worker here; a worker
 * thread from matrix-chess/node) or on this one (Engine), game analysis and PGN reading, with
 * their types and errors. Everything else is in the entries beside it: matrix-chess/core (the
 * rules: Position, move generation, notation, perft), matrix-chess/engine (the search and
 * evaluation, the networks, the backends), matrix-chess/node (what needs Node: files, threads).
 * No module this entry reaches imports a Node built-in, so it bundles for browsers.
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
export { FenError, START_FEN, type FenField } from './core/fen.js';
export { MoveError } from './core/notation.js';
// The synchronous engine answers with move codes: moveToUci writes one as e2e4.
export { moveToUci } from './core/move.js';

// The engine on another thread: await createEngine(), then analyse(fen, { depth, signal, onInfo }).
export { createEngine, type WebEngineOptions } from './client/create-engine.js';
export {
  AsyncEngine,
  EngineClosedError,
  EngineReplyError,
  type Analysis,
  type AnalysisLine,
  type AnalyseOptions,
  type OptionValue,
  type StartOptions,
  type UciOption,
} from './client/engine-client.js';
export type { UciTransport, WorkerLike } from './client/transport.js';

// The engine on this thread: new Engine(options).search(chess.position, { depth }).
export {
  Engine,
  SearchLimitError,
  EngineOptionError,
  nnueFromBytes,
  type EngineOptions,
  type NnueBytesOptions,
  type Score,
  type SearchHooks,
  type SearchInfo,
  type SearchLimits,
  type SearchResult,
} from './engine/index.js';

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
export {
  winPercent,
  winningChances,
  moveAccuracy,
  gameAccuracy,
  judgeMove,
  type Judgement,
  type SideAccuracy,
} from './analysis/win-probability.js';

// PGN: the game model, read and written (a file on Node: readPgnFile, streamPgnFile from matrix-chess/node).
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
  type PgnReadOptions,
  type PgnWriteOptions,
  type PgnErrorKind,
  type PgnErrorPlace,
} from './core/pgn/index.js';
