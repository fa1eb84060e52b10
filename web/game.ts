/**
 * The game being played in the page: one library Game (one core Position on which every move is
 * played, so repetition and the fifty-move rule see the whole game). Loading a FEN or PGN builds
 * a new Game and only replaces the current one when everything parsed, so a bad paste never loses
 * the game.
 */
import { type Position } from '../src/core/position.js';
import { START_FEN } from '../src/core/fen.js';
import { legalMoveList } from '../src/core/notation.js';
import { readPgnGames, PgnError } from '../src/core/pgn-read.js';
import { KIND_CASTLE, moveKind, moveTo } from '../src/core/move.js';
import { moveToUciIn } from '../src/core/notation.js';
import { GAME_END_TEXT, type GameStatus } from '../src/core/status.js';
import { Game as LibGame } from '../src/game.js';

export interface PgnHeaders {
  [tag: string]: string;
}

/**
 * The library's Game (src/game.ts) plus what the page needs on top: move ints for the board and
 * the panels, a status sentence, and PGN loading.
 */
export class Game {
  readonly lib: LibGame;
  headers: PgnHeaders = {};

  /** `chess960`: UCI castles are king-takes-own-rook (the engine worker is told), and the board castles by dropping the king on its rook. */
  constructor(
    readonly startFen: string = START_FEN,
    readonly chess960 = false,
  ) {
    this.lib = new LibGame(startFen, { chess960 }); // throws FenError
  }

  /** The square the board drags a move's piece to: a Chess960 castle is king-takes-own-rook. */
  boardTo(move: number): number {
    return this.chess960 && moveKind(move) === KIND_CASTLE ? this.pos.castleRookFrom(move) : moveTo(move);
  }

  get pos(): Position {
    return this.lib.position;
  }
  /** Moves played, as core move ints. */
  get moves(): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.pos.ply; i++) out.push(this.pos.moveAt(i));
    return out;
  }
  get sans(): string[] {
    return this.lib.historySan();
  }

  /** Plays a legal move (a core move int from the legal list). */
  play(move: number): string {
    return this.lib.play(moveToUciIn(this.pos, move, this.chess960)).san;
  }
  playUci(uci: string): string {
    return this.lib.play(uci).san;
  }
  undo(): boolean {
    return this.lib.undo() !== undefined;
  }

  legalMoves(): number[] {
    return legalMoveList(this.pos);
  }
  uciMoves(): string[] {
    return this.lib.history();
  }
  fen(): string {
    return this.lib.fen();
  }
  status(): GameStatus {
    return this.lib.status();
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

  toPgn(date = new Date()): string {
    const d = `${date.getUTCFullYear()}.${String(date.getUTCMonth() + 1).padStart(2, '0')}.${String(date.getUTCDate()).padStart(2, '0')}`;
    const { FEN: _fen, SetUp: _setup, Result: _result, ...kept } = this.headers;
    return this.lib.pgn({ Event: 'Matrix Chess game', Site: 'Matrix Chess web app', Date: d, ...kept });
  }

  /** One PGN game, read by the core's PGN reader. Throws PgnError (naming the move) or FenError. */
  static fromPgn(text: string): Game {
    const games = readPgnGames(text, 'PGN');
    if (games.length !== 1) throw new PgnError(games.length === 0 ? 'PGN: no game found' : `PGN: ${games.length} games found; paste one`);
    const record = games[0];
    const game = new Game(record.fen, record.tags.Variant === 'Chess960');
    game.headers = record.tags;
    for (const m of record.moves) game.play(m);
    return game;
  }
}
