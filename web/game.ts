/**
 * The game being played in the page: one library Chess (matrix-chess/compat, one core Position on
 * which every move is played, so repetition and the fifty-move rule see the whole game). Loading a
 * FEN or PGN builds a new Game and only replaces the current one when everything parsed, so a bad
 * paste never loses the game.
 */
import { Position } from '../src/core/position.js';
import { FenError, START_FEN } from '../src/core/fen.js';
import { legalMoveList, moveToUciIn, movesToUciIn } from '../src/core/notation.js';
import {
  makePgn,
  newPgnGame,
  parsePgnGame,
  pgnLine,
  pgnStartFen,
  setPgnResult,
  setPgnStartFen,
  type PgnResult,
} from '../src/core/pgn/index.js';
import { KIND_CASTLE, moveKind, moveTo } from '../src/core/move.js';
import { GAME_END_TEXT, gameStatus, type GameStatus } from '../src/core/status.js';
import { Chess } from '../src/compat/index.js';

export interface PgnHeaders {
  [tag: string]: string;
}

/**
 * The library's Chess plus what the page needs on top: move ints for the board and the panels,
 * a status sentence, and PGN in and out.
 */
export class Game {
  readonly chess: Chess;
  headers: PgnHeaders = {};

  /** `chess960`: UCI castles are king-takes-own-rook (the engine worker is told), and the board castles by dropping the king on its rook. */
  constructor(
    readonly startFen: string = START_FEN,
    readonly chess960 = false,
  ) {
    this.chess = new Chess(startFen, { chess960 }); // throws FenError
  }

  /** The square the board drags a move's piece to: a Chess960 castle is king-takes-own-rook. */
  boardTo(move: number): number {
    return this.chess960 && moveKind(move) === KIND_CASTLE ? this.pos.castleRookFrom(move) : moveTo(move);
  }

  get pos(): Position {
    return this.chess.position;
  }
  /** Moves played, as core move ints. */
  get moves(): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.pos.ply; i++) out.push(this.pos.moveAt(i));
    return out;
  }
  get sans(): string[] {
    return this.chess.history();
  }

  /** Plays a legal move (a core move int from the legal list). */
  play(move: number): string {
    return this.chess.move(moveToUciIn(this.pos, move, this.chess960)).san;
  }
  playUci(uci: string): string {
    return this.chess.move(uci).san;
  }
  undo(): boolean {
    return this.chess.undo() !== null;
  }

  legalMoves(): number[] {
    return legalMoveList(this.pos);
  }
  uciMoves(): string[] {
    return movesToUciIn(Position.fromFen(this.startFen), this.moves, this.chess960);
  }
  fen(): string {
    return this.chess.fen();
  }
  status(): GameStatus {
    return gameStatus(this.pos);
  }

  /** A sentence for the status line. */
  statusText(): string {
    const s = this.status();
    if (s.over) {
      return s.reason === 'checkmate'
        ? `Checkmate: ${s.winner === 'white' ? 'White' : 'Black'} wins`
        : `Game over: ${GAME_END_TEXT[s.reason!]}`;
    }
    return `${this.pos.side === 0 ? 'White' : 'Black'} to move${s.check ? ' (check)' : ''}`;
  }

  /**
   * The game as PGN (src/core/pgn writes it): the seven-tag roster (the loaded game's tags,
   * Event/Site/Date of the app), the result from the position when the game is over,
   * Variant "Chess960", SetUp/FEN for a custom start, and the loaded game's other tags.
   */
  toPgn(date = new Date()): string {
    const d = `${date.getUTCFullYear()}.${String(date.getUTCMonth() + 1).padStart(2, '0')}.${String(date.getUTCDate()).padStart(2, '0')}`;
    const { FEN: _fen, SetUp: _setup, Result: _result, ...kept } = this.headers;
    const tags: PgnHeaders = {
      White: '?',
      Black: '?',
      Round: '?',
      ...(this.chess960 ? { Variant: 'Chess960' } : {}),
      ...kept,
      Event: kept.Event ?? 'Matrix Chess game',
      Site: kept.Site ?? 'Matrix Chess web app',
      Date: kept.Date ?? d,
    };
    const st = this.status();
    const result: PgnResult = !st.over ? '*' : st.reason === 'checkmate' ? (st.winner === 'white' ? '1-0' : '0-1') : '1/2-1/2';
    const game = newPgnGame({
      Event: tags.Event,
      Site: tags.Site,
      Date: tags.Date,
      Round: tags.Round,
      White: tags.White,
      Black: tags.Black,
    });
    setPgnResult(game, result);
    setPgnStartFen(game, this.startFen);
    game.tags.set('PlyCount', String(this.sans.length));
    for (const [k, v] of Object.entries(tags)) if (!game.tags.has(k) && k !== 'PlyCount') game.tags.set(k, v);
    game.moves = pgnLine(this.sans);
    return makePgn(game);
  }

  /**
   * A game from a pasted FEN: classical chess, or Chess960 when only Chess960's castling reads it
   * (a king or castling rook off its classical square, rook-file letters). Throws the classical
   * reading's FenError when neither reads it.
   */
  static fromFen(text: string): Game {
    try {
      return new Game(text);
    } catch (err) {
      if (!(err instanceof FenError) || err.field !== 'castling') throw err;
      try {
        return new Game(text, true);
      } catch {
        throw err;
      }
    }
  }

  /** One PGN game, read by the core's PGN reader (its main line). Throws PgnError (naming the game, line, column and move) or FenError. */
  static fromPgn(text: string): Game {
    const record = parsePgnGame(text, { source: 'PGN' });
    const game = new Game(pgnStartFen(record), record.tags.get('Variant') === 'Chess960');
    game.headers = Object.fromEntries(record.tags);
    for (const m of record.moves) game.play(m.move!);
    return game;
  }
}
