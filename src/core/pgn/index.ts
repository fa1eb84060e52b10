/** PGN: the game model, the reader (whole text or streamed), replay on the core's Position, the writer. See docs/pgn.md. */
export { PgnError, type PgnErrorKind, type PgnErrorPlace } from './errors.js';
export {
  GLYPH_OF_NAG,
  NAG_OF_GLYPH,
  PGN_RESULTS,
  SEVEN_TAG_ROSTER,
  formatClockCommand,
  formatEvalCommand,
  isPgnResult,
  newPgnGame,
  parseClockCommand,
  parseEvalCommand,
  pgnDate,
  pgnLine,
  pgnScore,
  pgnStartFen,
  setPgnResult,
  setPgnStartFen,
  takeCommands,
  type PgnEval,
  type PgnGame,
  type PgnMove,
  type PgnResult,
} from './model.js';
export { PgnReader, parsePgn, parsePgnGame, readPgn, streamPgn, type PgnReadOptions } from './reader.js';
export { pgnStartPosition, replayPgnGame } from './replay.js';
export { makeMovetext, makePgn, makePgnGames, makePgnTag, type PgnWriteOptions } from './writer.js';
export { PgnTokenizer, type PgnTokenSink } from './tokenizer.js';
