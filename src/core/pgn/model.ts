/**
 * The PGN game model: what a PGN game says, all of it. Tags in their order; the comments before
 * the first move; the moves as a tree (each move its SAN, NAGs, comments before and after, the
 * `[%eval]` and `[%clk]` of its comment as fields, and the variations that replace it); the
 * result. The reader (reader.ts) builds it, replay.ts checks its moves on a Position, the
 * writer (writer.ts) prints it back.
 */
import { START_FEN } from '../fen.js';
import type { Score } from '../types.js';

/** The game termination marker: White won, Black won, drawn, or unknown / unfinished. */
export type PgnResult = '1-0' | '0-1' | '1/2-1/2' | '*';

export const PGN_RESULTS: readonly PgnResult[] = ['1-0', '0-1', '1/2-1/2', '*'];

export function isPgnResult(text: string | undefined): text is PgnResult {
  return text === '1-0' || text === '0-1' || text === '1/2-1/2' || text === '*';
}

/** An engine evaluation as `[%eval]` carries it: centipawns for White, or mate in N (negative: Black mates); optionally the depth. */
export type PgnEval = ({ cp: number } | { mate: number }) & { depth?: number };

export interface PgnMove {
  /** The move as written (SAN, or what the source wrote for it), without its annotation glyph. */
  san: string;
  /** The move as the core's move code, once the game is replayed (replayPgnGame; the reader replays by default); 0 for a null move '--'. */
  move?: number;
  /** Numeric annotation glyphs in order: $1 or '!' is 1, '?' 2, '!!' 3, '??' 4, '!?' 5, '?!' 6. */
  nags?: number[];
  /** Comments between the move number and the move, or opening a variation before its first move. */
  commentsBefore?: string[];
  /** Comments after the move, as written (their `[%eval]` and `[%clk]` commands taken out into the fields below). */
  commentsAfter?: string[];
  /** `[%eval …]`: the evaluation after the move. */
  eval?: PgnEval;
  /** `[%clk h:mm:ss]`: the mover's clock after the move, in seconds. */
  clock?: number;
  /** Variations: other lines played instead of this move, each from the position before it. */
  variations?: PgnMove[][];
}

export interface PgnGame {
  /** Tag pairs in the order read or set (Map keeps insertion order). */
  tags: Map<string, string>;
  /** Comments before the first move (the game comment). */
  comments: string[];
  /** The main line. */
  moves: PgnMove[];
  /** The termination marker; the Result tag when the text had none. */
  result: PgnResult;
}

/** The Seven Tag Roster in the standard's order, with the values that mean "unknown". */
export const SEVEN_TAG_ROSTER: ReadonlyArray<readonly [string, string]> = [
  ['Event', '?'],
  ['Site', '?'],
  ['Date', '????.??.??'],
  ['Round', '?'],
  ['White', '?'],
  ['Black', '?'],
  ['Result', '*'],
];

/** Annotation glyphs and their NAG numbers (1 to 6). */
export const NAG_OF_GLYPH: Readonly<Record<string, number>> = { '!': 1, '?': 2, '!!': 3, '??': 4, '!?': 5, '?!': 6 };
export const GLYPH_OF_NAG: readonly string[] = ['', '!', '?', '!!', '??', '!?', '?!'];

/**
 * A new game: the Seven Tag Roster (unknown values) with `tags` laid over it in its place and
 * any other tags after, no moves, result '*' (or the Result tag's).
 */
export function newPgnGame(tags: Iterable<readonly [string, string]> | Record<string, string> = []): PgnGame {
  const map = new Map<string, string>(SEVEN_TAG_ROSTER);
  const entries = Symbol.iterator in tags ? (tags as Iterable<readonly [string, string]>) : Object.entries(tags);
  for (const [k, v] of entries) map.set(k, v);
  const result = map.get('Result');
  return { tags: map, comments: [], moves: [], result: isPgnResult(result) ? result : '*' };
}

/** Sets the termination marker and the Result tag together. */
export function setPgnResult(game: PgnGame, result: PgnResult): void {
  game.result = result;
  game.tags.set('Result', result);
}

/** The FEN the game starts from: its FEN tag, else the standard start. */
export function pgnStartFen(game: PgnGame): string {
  return game.tags.get('FEN') ?? START_FEN;
}

/** Sets the start position: SetUp "1" and FEN for any other than the standard start, neither for it. */
export function setPgnStartFen(game: PgnGame, fen: string): void {
  if (fen === START_FEN) {
    game.tags.delete('SetUp');
    game.tags.delete('FEN');
  } else {
    game.tags.set('SetUp', '1');
    game.tags.set('FEN', fen);
  }
}

/**
 * A line of moves from SAN, each with an optional comment after it (same index): what a program
 * that played the game (a match, self-play, the web app) hands the writer.
 */
export function pgnLine(sans: readonly string[], comments: ReadonlyArray<string | undefined> = []): PgnMove[] {
  return sans.map((san, i) => {
    const c = comments[i];
    return c === undefined ? { san } : { san, commentsAfter: [c] };
  });
}

/** An engine score as our match and self-play comments carry it: pawns from the mover's view ("+0.35") or mate ("-M3"). */
export function pgnScore(s: Score): string {
  if ('mate' in s) return `${s.mate > 0 ? '+' : '-'}M${Math.abs(s.mate)}`;
  return `${s.cp >= 0 ? '+' : ''}${(s.cp / 100).toFixed(2)}`;
}

/** A date as the Date tag writes it: YYYY.MM.DD (UTC). */
export function pgnDate(d = new Date()): string {
  return d.toISOString().slice(0, 10).replace(/-/g, '.');
}

// ---- [%eval] and [%clk]: comment commands as fields ----

const EVAL_VALUE = /^(#)?([+-]?\d+(?:\.\d+)?)(?:,(\d+))?$/;
const CLOCK_VALUE = /^(?:(\d+):)?(\d{1,2}):(\d{1,2}(?:\.\d+)?)$/;

/** Reads `[%eval 0.17]`, `[%eval #-3]`, `[%eval 0.17,20]` values; undefined when it is none of them. */
export function parseEvalCommand(value: string): PgnEval | undefined {
  const m = EVAL_VALUE.exec(value);
  if (!m) return undefined;
  let e: PgnEval;
  if (m[1] !== undefined) {
    if (m[2].includes('.')) return undefined;
    e = { mate: Number(m[2]) };
  } else {
    const pawns = Number(m[2]),
      dot = m[2].indexOf('.');
    // Centipawns, exact for any number of decimals the text gives.
    const cp = dot < 0 || m[2].length - dot <= 3 ? Math.round(pawns * 100) : Number((pawns * 100).toFixed(6));
    e = { cp: cp || 0 };
  }
  if (m[3] !== undefined) e.depth = Number(m[3]);
  return e;
}

/** Reads `[%clk 1:02:03]` (or m:ss, with decimals on the seconds) as seconds, to the millisecond. */
export function parseClockCommand(value: string): number | undefined {
  const m = CLOCK_VALUE.exec(value);
  if (!m) return undefined;
  return Math.round((Number(m[1] ?? 0) * 3600 + Number(m[2]) * 60 + Number(m[3])) * 1000) / 1000;
}

export function formatEvalCommand(e: PgnEval): string {
  const depth = e.depth !== undefined ? `,${e.depth}` : '';
  if ('mate' in e) return `[%eval #${e.mate}${depth}]`;
  const pawns = Number.isInteger(e.cp) ? (e.cp / 100).toFixed(2) : String(Number((e.cp / 100).toFixed(8)));
  return `[%eval ${pawns}${depth}]`;
}

export function formatClockCommand(seconds: number): string {
  const h = Math.floor(seconds / 3600),
    m = Math.floor((seconds - h * 3600) / 60);
  const s = Number((seconds - h * 3600 - m * 60).toFixed(3));
  return `[%clk ${h}:${String(m).padStart(2, '0')}:${s < 10 ? '0' : ''}${s}]`;
}

/**
 * Takes the `[%eval]` and `[%clk]` commands out of a comment after `move` into its fields (the
 * first of each kind; one whose value cannot be read stays in the text) and returns the rest of
 * the comment, trimmed when something was taken ('' when nothing is left).
 */
export function takeCommands(move: PgnMove, text: string): string {
  let at = text.indexOf('[%');
  if (at < 0) return text;
  // What is left: the text between the commands taken, each piece without the spaces at a cut.
  const pieces: string[] = [];
  let from = 0;
  for (; at >= 0; at = text.indexOf('[%', at + 2)) {
    const close = text.indexOf(']', at);
    if (close < 0) break;
    const body = text.slice(at + 2, close);
    const space = body.search(/\s/);
    if (space < 0) continue;
    const name = body.slice(0, space),
      value = body.slice(space + 1).trim();
    if (name === 'eval' && move.eval === undefined) {
      const e = parseEvalCommand(value);
      if (e === undefined) continue;
      move.eval = e;
    } else if (name === 'clk' && move.clock === undefined) {
      const c = parseClockCommand(value);
      if (c === undefined) continue;
      move.clock = c;
    } else continue;
    pieces.push(text.slice(from, at));
    from = close + 1;
    at = close - 1;
  }
  if (pieces.length === 0) return text;
  pieces.push(text.slice(from));
  return pieces
    .map((p, i) => (i > 0 ? p.replace(/^[ \t]+/, '') : p).replace(i < pieces.length - 1 ? /[ \t]+$/ : /$/, ''))
    .filter((p) => p !== '')
    .join(' ')
    .trim();
}
