/**
 * Opening sets for matches. A file holds one opening per line, either
 *   - UCI moves from the start position: "e2e4 c7c5 g1f3", or
 *   - a FEN or EPD position, optionally followed by `moves` and UCI moves
 *     ("<fen> moves e2e4"); EPD operations after the four fields are ignored.
 * Text from # to the end of a line is a comment; blank lines are skipped. Every move is checked against the core.
 */
import { readFileSync } from 'node:fs';
import { Position } from '../core/position.js';
import { START_FEN, FenError } from '../core/fen.js';
import { MoveError, parseUciMove } from '../core/notation.js';
import { CHESS960_POSITIONS, chess960StartFen } from '../core/chess960.js';
import { Sfc32 } from '../core/rng.js';

export interface Opening {
  /** Starting position; START_FEN for the normal start. */
  fen: string;
  /** UCI moves played from `fen` before the engines take over. */
  moves: string[];
}

export class OpeningError extends Error {
  override readonly name = 'OpeningError';
}

/** Parses one opening line (see module comment); throws OpeningError with `where` in the message. */
export function parseOpeningLine(text: string, where = 'opening'): Opening {
  let fen = START_FEN;
  let moveText = text.trim();
  if (moveText.includes('/')) {
    const [posPart, movesPart = ''] = moveText.split(/\s+moves\s+/);
    const fields = posPart.trim().split(/\s+/);
    if (fields.length < 4)
      throw new OpeningError(`${where}: a FEN needs at least 4 fields (placement, side, castling, en passant), got ${fields.length}`);
    // Six fields with numeric clocks: a FEN. Otherwise an EPD: four fields, then operations we ignore.
    const clocks = fields.length >= 6 && /^\d+$/.test(fields[4]) && /^\d+$/.test(fields[5]) ? fields.slice(4, 6) : ['0', '1'];
    fen = [...fields.slice(0, 4), ...clocks].join(' ');
    moveText = movesPart;
  }
  let pos: Position;
  try {
    pos = Position.fromFen(fen);
  } catch (e) {
    if (e instanceof FenError) throw new OpeningError(`${where}: bad FEN (${e.field}): ${e.message}`);
    throw e;
  }
  const moves = moveText.split(/\s+/).filter((m) => m !== '');
  for (const mv of moves) {
    try {
      pos.makeMove(parseUciMove(pos, mv));
    } catch (e) {
      if (e instanceof MoveError) throw new OpeningError(`${where}: ${e.message}`);
      throw e;
    }
  }
  return { fen: pos.ply === 0 && fen === START_FEN ? START_FEN : fen, moves };
}

export function parseOpenings(text: string, source = 'openings'): Opening[] {
  const out: Opening[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    const t = line.replace(/(^|\s)#.*$/, '').trim(); // # starts a comment, at line start or after a space
    if (t === '') return;
    out.push(parseOpeningLine(t, `${source}:${i + 1}`));
  });
  if (out.length === 0) throw new OpeningError(`${source}: no openings found (expected one line of UCI moves or a FEN per opening)`);
  return out;
}

export function loadOpenings(path: string): Opening[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new OpeningError(`cannot read openings file '${path}': ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  return parseOpenings(text, path);
}

/**
 * `count` Chess960 start positions drawn by a seeded generator (distinct while count <= 960), each
 * an opening the match plays twice with colours reversed.
 */
export function chess960Openings(count: number, seed: number): Opening[] {
  const rng = new Sfc32(seed);
  const used = new Set<number>();
  const out: Opening[] = [];
  while (out.length < count) {
    const n = Math.floor(rng.nextFloat() * CHESS960_POSITIONS);
    if (used.has(n) && used.size < CHESS960_POSITIONS) continue;
    used.add(n);
    out.push({ fen: chess960StartFen(n), moves: [] });
  }
  return out;
}
