/**
 * The game being played in the page: its starting FEN and one core Position on which every move
 * is played (so repetition and the fifty-move rule see the whole game), with SAN kept alongside
 * for the move list and PGN. Loading a FEN or PGN builds a new Game and only replaces the current
 * one when everything parsed, so a bad paste never loses the game.
 */
import { Position, START_FEN } from '../src/core/position.js';
import { moveToSan, parseSan, parseUciMove, legalMoveList } from '../src/core/notation.js';
import { moveToUci } from '../src/core/move.js';
import { gameStatus, GAME_END_TEXT, type GameStatus } from '../src/core/status.js';

/** A PGN that cannot be loaded; the message says where and why. */
export class PgnError extends Error {
  override readonly name = 'PgnError';
}

export interface PgnHeaders { [tag: string]: string }

export class Game {
  readonly pos: Position;
  readonly moves: number[] = [];
  readonly sans: string[] = [];
  headers: PgnHeaders = {};

  constructor(readonly startFen: string = START_FEN) {
    this.pos = Position.fromFen(startFen); // throws FenError
  }

  /** Plays a legal move (a core move int from the legal list). */
  play(move: number): string {
    const san = moveToSan(this.pos, move);
    this.pos.makeMove(move);
    this.moves.push(move);
    this.sans.push(san);
    return san;
  }

  playUci(uci: string): string {
    return this.play(parseUciMove(this.pos, uci));
  }

  undo(): boolean {
    if (this.moves.length === 0) return false;
    this.pos.unmakeMove();
    this.moves.pop();
    this.sans.pop();
    return true;
  }

  legalMoves(): number[] { return legalMoveList(this.pos); }
  uciMoves(): string[] { return this.moves.map(moveToUci); }
  fen(): string { return this.pos.toFen(); }
  status(): GameStatus { return gameStatus(this.pos); }

  /** "1-0", "0-1", "1/2-1/2" or "*". */
  result(): string {
    const s = this.status();
    if (!s.over) return '*';
    if (s.reason === 'checkmate') return s.winner === 'white' ? '1-0' : '0-1';
    return '1/2-1/2';
  }

  /** A sentence for the status line. */
  statusText(): string {
    const s = this.status();
    const side = this.pos.side === 0 ? 'White' : 'Black';
    if (s.over) {
      const why = GAME_END_TEXT[s.reason!];
      return s.reason === 'checkmate' ? `${s.winner === 'white' ? 'White' : 'Black'} wins by checkmate` : `Game over: ${why}`;
    }
    return `${side} to move${s.check ? ' (check)' : ''}`;
  }

  /** Movetext with numbers, starting at the FEN's move number and side. */
  movetext(): string {
    const start = Position.fromFen(this.startFen);
    let num = start.fullmove, white = start.side === 0;
    const parts: string[] = [];
    this.sans.forEach((san, i) => {
      if (white) parts.push(`${num}. ${san}`);
      else parts.push(i === 0 ? `${num}... ${san}` : san);
      if (!white) num++;
      white = !white;
    });
    return parts.join(' ');
  }

  toPgn(date = new Date()): string {
    const d = `${date.getUTCFullYear()}.${String(date.getUTCMonth() + 1).padStart(2, '0')}.${String(date.getUTCDate()).padStart(2, '0')}`;
    const result = this.result();
    const tags: Array<[string, string]> = [
      ['Event', this.headers.Event ?? 'Matrix Chess game'], ['Site', this.headers.Site ?? 'Matrix Chess web app'],
      ['Date', this.headers.Date ?? d], ['Round', this.headers.Round ?? '-'],
      ['White', this.headers.White ?? '?'], ['Black', this.headers.Black ?? '?'], ['Result', result],
    ];
    if (this.startFen !== START_FEN) tags.push(['SetUp', '1'], ['FEN', this.startFen]);
    const head = tags.map(([k, v]) => `[${k} "${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"]`).join('\n');
    const body = (this.movetext() + ' ' + result).trim();
    return `${head}\n\n${wrap(body, 79)}\n`;
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
        throw new PgnError(`PGN move ${game.moves.length + 1} ('${tok}'): ${why}`);
      }
      game.play(move);
    }
    return game;
  }
}

function wrap(text: string, width: number): string {
  const out: string[] = [];
  let line = '';
  for (const w of text.split(' ')) {
    if (line && line.length + 1 + w.length > width) { out.push(line); line = w; } else line = line ? `${line} ${w}` : w;
  }
  if (line) out.push(line);
  return out.join('\n');
}
