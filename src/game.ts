/**
 * The library's front door: a game you can play moves on by UCI or SAN text, undo, inspect and
 * search. It wraps one Position (so repetition history is kept) and speaks strings, while the
 * core underneath speaks integers.
 */
import { Position } from './core/position.js';
import { START_FEN } from './core/fen.js';
import { MoveError, legalMoveList, moveToSan, moveToUciIn, movesToUciIn, parseSan, parseUciMove } from './core/notation.js';
import { chess960StartFen } from './core/chess960.js';
import { gameStatus, type GameStatus } from './core/status.js';
import { perft as corePerft } from './core/perft.js';
import { writePgnGame, type PgnResult } from './core/pgn.js';

const UCI_SHAPE = /^[a-h][1-8][a-h][1-8][qrbn]?$/;

export interface GameOptions {
  /**
   * Chess960 notation: UCI castles are king-takes-own-rook (e1h1) in and out, and the PGN says
   * `Variant "Chess960"`. The rules need no switch: any FEN's castling (X-FEN, Shredder-FEN) works.
   */
  chess960?: boolean;
}

export class Game {
  private readonly pos: Position;
  private readonly startFen: string;
  private readonly sanHistory: string[] = [];
  readonly chess960: boolean;

  /** Starts from the standard position or a FEN (throws FenError naming the bad field). */
  constructor(fen: string = START_FEN, options: GameOptions = {}) {
    this.pos = Position.fromFen(fen);
    this.startFen = this.pos.toFen();
    this.chess960 = options.chess960 === true;
  }

  /** A Chess960 game from start position `n` (0..959, Scharnagl numbering; 518 is the classical start). */
  static chess960(n: number): Game {
    return new Game(chess960StartFen(n), { chess960: true });
  }

  private uci(m: number): string {
    return moveToUciIn(this.pos, m, this.chess960);
  }

  /** The current position (live: do not make moves on it directly). */
  get position(): Position {
    return this.pos;
  }

  fen(): string {
    return this.pos.toFen();
  }
  turn(): 'white' | 'black' {
    return this.pos.side === 0 ? 'white' : 'black';
  }

  /** Legal moves in UCI notation. */
  moves(): string[] {
    return legalMoveList(this.pos).map((m) => this.uci(m));
  }
  /** Legal moves in SAN. */
  movesSan(): string[] {
    return legalMoveList(this.pos).map((m) => moveToSan(this.pos, m));
  }

  /** Plays a move given in UCI (e2e4, e7e8q) or SAN (e4, Nf3, O-O); throws MoveError if illegal. */
  play(move: string): { uci: string; san: string } {
    if (typeof move !== 'string') throw new MoveError(String(move), 'expected a move as a string, e.g. e2e4 or Nf3');
    const text = move.trim();
    const m = UCI_SHAPE.test(text) ? parseUciMove(this.pos, text, this.chess960) : parseSan(this.pos, text);
    const san = moveToSan(this.pos, m),
      uci = this.uci(m);
    this.pos.makeMove(m);
    this.sanHistory.push(san);
    return { uci, san };
  }

  /** Takes back the last move; returns it in UCI, or undefined at the start. */
  undo(): string | undefined {
    if (this.pos.ply === 0) return undefined;
    const m = this.pos.moveAt(this.pos.ply - 1);
    this.pos.unmakeMove();
    this.sanHistory.pop();
    return this.uci(m);
  }

  /** Moves played since the start, in UCI. */
  history(): string[] {
    const moves: number[] = [];
    for (let i = 0; i < this.pos.ply; i++) moves.push(this.pos.moveAt(i));
    return movesToUciIn(Position.fromFen(this.startFen), moves, this.chess960);
  }
  historySan(): string[] {
    return [...this.sanHistory];
  }

  status(): GameStatus {
    return gameStatus(this.pos);
  }
  isCheck(): boolean {
    return this.pos.inCheck();
  }

  /** Leaf count of the legal move tree to `depth` plies (bitboard core). */
  perft(depth: number): number {
    return corePerft(this.pos, depth);
  }

  /**
   * The game as PGN (src/core/pgn.ts writes it): the seven-tag roster from `headers` (missing
   * ones are '?'), the result from the position when the game is over, SetUp/FEN for a custom
   * start, and any other headers after those.
   */
  pgn(headers: Record<string, string> = {}): string {
    const tags: Record<string, string> = {
      Event: '?',
      Site: '?',
      Date: '????.??.??',
      Round: '?',
      White: '?',
      Black: '?',
      Result: '*',
      ...(this.chess960 ? { Variant: 'Chess960' } : {}),
      ...headers,
    };
    const st = this.status();
    if (tags.Result === '*' && st.over) tags.Result = st.reason === 'checkmate' ? (st.winner === 'white' ? '1-0' : '0-1') : '1/2-1/2';
    const result = (['1-0', '0-1', '1/2-1/2'].includes(tags.Result) ? tags.Result : '*') as PgnResult;
    const roster = new Set(['Event', 'Site', 'Date', 'Round', 'White', 'Black', 'Result', 'SetUp', 'FEN', 'PlyCount']);
    return writePgnGame({
      event: tags.Event,
      site: tags.Site,
      date: tags.Date,
      round: tags.Round,
      white: tags.White,
      black: tags.Black,
      result,
      fen: this.startFen,
      san: this.sanHistory,
      extraTags: Object.entries(tags).filter(([k]) => !roster.has(k)),
    });
  }
}
