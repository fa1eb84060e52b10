/**
 * The game being played in the page: one library Game (one core Position on which every move is
 * played, so repetition and the fifty-move rule see the whole game). Loading a FEN or PGN builds
 * a new Game and only replaces the current one when everything parsed, so a bad paste never loses
 * the game.
 */
import { type Position, START_FEN } from '../src/core/position.js';
import { parseSan, legalMoveList } from '../src/core/notation.js';
import { moveToUci } from '../src/core/move.js';
import { GAME_END_TEXT, type GameStatus } from '../src/core/status.js';
import { Game as LibGame } from '../src/game.js';

/** A PGN that cannot be loaded; the message says where and why. */
export class PgnError extends Error {
  override readonly name = 'PgnError';
}

export interface PgnHeaders { [tag: string]: string }

/**
 * The library's Game (src/game.ts) plus what the page needs on top: move ints for the board and
 * the panels, a status sentence, and PGN loading.
 */
export class Game {
  readonly lib: LibGame;
  headers: PgnHeaders = {};

  constructor(readonly startFen: string = START_FEN) {
    this.lib = new LibGame(startFen); // throws FenError
  }

  get pos(): Position { return this.lib.position; }
  /** Moves played, as core move ints. */
  get moves(): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.pos.ply; i++) out.push(this.pos.moveAt(i));
    return out;
  }
  get sans(): string[] { return this.lib.historySan(); }

  /** Plays a legal move (a core move int from the legal list). */
  play(move: number): string { return this.lib.play(moveToUci(move)).san; }
  playUci(uci: string): string { return this.lib.play(uci).san; }
  undo(): boolean { return this.lib.undo() !== undefined; }

  legalMoves(): number[] { return legalMoveList(this.pos); }
  uciMoves(): string[] { return this.lib.history(); }
  fen(): string { return this.lib.fen(); }
  status(): GameStatus { return this.lib.status(); }

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

  /** Parses one PGN game (tags, comments, variations, NAGs are tolerated). Throws FenError or PgnError. */
  static fromPgn(text: string): Game {
    const headers: PgnHeaders = {};
    const tagRe = /^\s*\[(\w+)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$/;
    const lines = text.replace(/\r\n?/g, '\n').split('\n');
    const body: string[] = [];
    for (const line of lines) {
      const m = tagRe.exec(line);
      if (m) headers[m[1]] = m[2].replace(/\\(.)/g, '$1');
      else if (/^\s*\[/.test(line)) throw new PgnError(`PGN tag line is malformed: ${line.trim().slice(0, 60)} (expected [Name "value"])`);
      else if (!line.startsWith('%')) body.push(line);
    }
    let movetext = body.join('\n')
      .replace(/\{[^}]*\}/g, ' ')   // comments
      .replace(/;[^\n]*/g, ' ');    // rest-of-line comments
    // Variations may nest: strip innermost first.
    for (let prev = ''; prev !== movetext;) { prev = movetext; movetext = movetext.replace(/\([^()]*\)/g, ' '); }
    if (/[{}()]/.test(movetext)) throw new PgnError('PGN has an unbalanced comment or variation bracket');
    const fen = headers.FEN ?? START_FEN;
    const game = new Game(fen);
    game.headers = headers;
    const tokens = movetext.split(/\s+/).filter((t) => t !== '');
    for (const raw of tokens) {
      if (/^(1-0|0-1|1\/2-1\/2|\*)$/.test(raw)) break;
      if (/^\$\d+$/.test(raw)) continue;
      const tok = raw.replace(/^\d+\.+/, '');
      if (tok === '' || /^\d+\.*$/.test(raw)) continue;
      let move: number;
      try {
        move = parseSan(game.pos, tok);
      } catch (e) {
        const why = e instanceof Error ? e.message : String(e);
        const label = `${game.pos.fullmove}${game.pos.side === 0 ? '.' : '...'} ${tok}`;
        throw new PgnError(`PGN move ${label}: ${why}`);
      }
      game.play(move);
    }
    return game;
  }
}
