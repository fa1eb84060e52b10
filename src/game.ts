/**
 * The library's front door: a game you can play moves on by UCI or SAN text, undo, inspect and
 * search. It wraps one Position (so repetition history is kept) and speaks strings, while the
 * core underneath speaks integers.
 */
import { Position, START_FEN } from './core/position.js';
import { moveToUci } from './core/move.js';
import { MoveError, legalMoveList, moveToSan, parseSan, parseUciMove } from './core/notation.js';
import { gameStatus, type GameStatus } from './core/status.js';
import { perft as corePerft } from './core/perft.js';
import { writePgnGame, type PgnResult } from './core/pgn.js';

const UCI_SHAPE = /^[a-h][1-8][a-h][1-8][qrbn]?$/;

export class Game {
  private readonly pos: Position;
  private readonly startFen: string;
  private readonly sanHistory: string[] = [];

  /** Starts from the standard position or a FEN (throws FenError naming the bad field). */
  constructor(fen: string = START_FEN) {
    this.pos = Position.fromFen(fen);
    this.startFen = this.pos.toFen();
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
    return legalMoveList(this.pos).map(moveToUci);
  }
  /** Legal moves in SAN. */
  movesSan(): string[] {
    return legalMoveList(this.pos).map((m) => moveToSan(this.pos, m));
  }

  /** Plays a move given in UCI (e2e4, e7e8q) or SAN (e4, Nf3, O-O); throws MoveError if illegal. */
  play(move: string): { uci: string; san: string } {
    if (typeof move !== 'string') throw new MoveError(String(move), 'expected a move as a string, e.g. e2e4 or Nf3');
    const text = move.trim();
    const m = UCI_SHAPE.test(text) ? parseUciMove(this.pos, text) : parseSan(this.pos, text);
    const san = moveToSan(this.pos, m);
    this.pos.makeMove(m);
    this.sanHistory.push(san);
    return { uci: moveToUci(m), san };
  }

  /** Takes back the last move; returns it in UCI, or undefined at the start. */
  undo(): string | undefined {
    if (this.pos.ply === 0) return undefined;
    const m = this.pos.moveAt(this.pos.ply - 1);
    this.pos.unmakeMove();
    this.sanHistory.pop();
    return moveToUci(m);
  }

  /** Moves played since the start, in UCI. */
  history(): string[] {
    const out: string[] = [];
    for (let i = 0; i < this.pos.ply; i++) out.push(moveToUci(this.pos.moveAt(i)));
    return out;
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
