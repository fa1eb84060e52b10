/**
 * The PGN reader (book building from match PGNs, the web app's paste box): tag pairs,
 * SetUp/FEN, and main-line SAN moves checked by our core. Comments, NAGs and variations are
 * skipped. Errors name the game and the move.
 */
import { Position } from './position.js';
import { START_FEN } from './fen.js';
import { MoveError, parseSan } from './notation.js';

export interface PgnRecord {
  tags: Record<string, string>;
  fen: string;
  /** Main-line moves as our move integers, playable from `fen`. */
  moves: number[];
  /** The main-line comment after each move (same index as `moves`), if any. */
  comments: Array<string | undefined>;
  result: string;
}

export class PgnError extends Error {
  override readonly name = 'PgnError';
}

/** Splits a PGN file into games and parses each. */
export function readPgnGames(text: string, source = 'pgn'): PgnRecord[] {
  return readPgnGamesEach(text, source).map((g) => {
    if (g instanceof PgnError) throw g;
    return g;
  });
}

/** Like readPgnGames, but a bad game is its PgnError in its place, so the games after it are still read. */
export function readPgnGamesEach(text: string, source = 'pgn'): Array<PgnRecord | PgnError> {
  const games: Array<PgnRecord | PgnError> = [];
  // A game is a block of tag lines followed by movetext; a new [Tag after movetext starts the next.
  const chunks = text.replace(/\r\n?/g, '\n').split(/\n(?=\[Event )/);
  chunks.forEach((chunk, gi) => {
    if (chunk.trim() === '') return;
    try {
      games.push(parseGame(chunk, `${source}: game ${gi + 1}`));
    } catch (e) {
      if (!(e instanceof PgnError)) throw e;
      games.push(e);
    }
  });
  return games;
}

const TAG = /^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]\s*$/;

function parseGame(chunk: string, where: string): PgnRecord {
  const tags: Record<string, string> = {};
  const body: string[] = [];
  for (const line of chunk.split('\n')) {
    const t = TAG.exec(line.trim());
    if (t && body.length === 0) tags[t[1]] = t[2].replace(/\\(.)/g, '$1');
    else if (!line.startsWith('%')) body.push(line);
  }
  const fen = tags.FEN ?? START_FEN;
  let pos: Position;
  try {
    pos = Position.fromFen(fen);
  } catch (e) {
    throw new PgnError(`${where}: bad FEN tag: ${(e as Error).message}`);
  }
  // Brace comments become numbered placeholders (kept for the move before them), ; comments go,
  // then variations (innermost first) are dropped with any placeholders inside them.
  const commentText: string[] = [];
  let text = body
    .join('\n')
    .replace(/\{([^}]*)\}/g, (_m, c: string) => ` {${commentText.push(c.trim()) - 1}} `)
    .replace(/;[^\n]*/g, ' ');
  for (let prev = ''; prev !== text;) {
    prev = text;
    text = text.replace(/\([^()]*\)/g, ' ');
  }
  const moves: number[] = [];
  const comments: Array<string | undefined> = [];
  let result = tags.Result ?? '*';
  for (const tok of text.split(/\s+/)) {
    if (tok === '' || /^\$\d+$/.test(tok) || /^\d+\.+$/.test(tok)) continue;
    const c = /^\{(\d+)\}$/.exec(tok);
    if (c) {
      if (moves.length > 0)
        comments[moves.length - 1] =
          comments[moves.length - 1] === undefined
            ? commentText[Number(c[1])]
            : `${comments[moves.length - 1]} ${commentText[Number(c[1])]}`;
      continue;
    }
    if (/^(1-0|0-1|1\/2-1\/2|\*)$/.test(tok)) {
      result = tok;
      break;
    }
    const san = tok.replace(/^\d+\.+/, '');
    if (san === '') continue;
    try {
      const m = parseSan(pos, san);
      pos.makeMove(m);
      moves.push(m);
      comments.push(undefined);
    } catch (e) {
      if (e instanceof MoveError) throw new PgnError(`${where}, move ${pos.fullmove}${pos.side === 0 ? '.' : '...'} ${san}: ${e.message}`);
      throw e;
    }
  }
  return { tags, fen, moves, comments, result };
}
