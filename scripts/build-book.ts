/**
 * Builds the project's Polyglot book (books/matrix-chess.bin) from its own data: the balanced
 * opening lines and the opening moves of self-play games (PGN written by the match runner).
 *
 *   node dist/scripts/build-book.js [--openings data/openings/balanced.txt]… [--pgn games.pgn]…
 *                                   [--plies 16] [--min-count 1] [--out books/matrix-chess.bin]
 *
 * Weights: every occurrence of a move in a position scores points for that move: 1 per
 * opening line (no result), and from games 2 for a win of the side that played it, 1 for a
 * draw, 0 for a loss. Moves whose games were all lost keep weight 0 ("never play"). Weights
 * are scaled so the largest fits in 16 bits.
 */
import { readFileSync } from 'node:fs';
import { parseCommandArgs, parseIntIn } from '../src/cmdline/args.js';
import { UsageError, runScript } from '../src/cmdline/errors.js';
import { Position } from '../src/core/position.js';
import { parseUciMove } from '../src/core/notation.js';
import { loadOpenings } from '../src/match/openings.js';
import { parsePgn, pgnStartFen } from '../src/core/pgn/index.js';
import { encodeBookMove, keyToHex, polyglotKey, type BookEntry, type BookKey } from '../src/book/polyglot.js';
import { writeBook } from '../src/book/polyglot-node.js';

interface Args {
  openings: string[];
  pgn: string[];
  plies: number;
  minCount: number;
  out: string;
}

function fail(msg: string): never {
  throw new UsageError(msg);
}

function parseArgs(argv: string[]): Args {
  const { values } = parseCommandArgs(
    'build-book',
    argv,
    {
      openings: { type: 'string', multiple: true },
      pgn: { type: 'string', multiple: true },
      plies: { type: 'string' },
      'min-count': { type: 'string' },
      out: { type: 'string' },
    },
    0,
  );
  const int = (flag: string, dflt: number): number =>
    values[flag] === undefined ? dflt : parseIntIn(`--${flag}`, values[flag] as string, 1, 1_000_000);
  const a: Args = {
    openings: (values.openings as string[] | undefined) ?? [],
    pgn: (values.pgn as string[] | undefined) ?? [],
    plies: int('plies', 16),
    minCount: int('min-count', 1),
    out: (values.out as string | undefined) ?? 'books/matrix-chess.bin',
  };
  if (a.openings.length === 0 && a.pgn.length === 0) a.openings.push('data/openings/balanced.txt');
  return a;
}

interface Stat {
  key: BookKey;
  move: number;
  points: number;
  count: number;
}

function main(): void {
  const args = parseArgs(process.argv.slice(2));
  const stats = new Map<string, Stat>();
  const add = (pos: Position, move: number, points: number): void => {
    const key = polyglotKey(pos);
    const raw = encodeBookMove(pos, move);
    const id = `${keyToHex(key)}:${raw}`;
    const s = stats.get(id) ?? { key, move: raw, points: 0, count: 0 };
    s.points += points;
    s.count++;
    stats.set(id, s);
  };
  let lines = 0,
    games = 0;
  for (const path of args.openings) {
    let openings;
    try {
      openings = loadOpenings(path);
    } catch (e) {
      fail((e as Error).message);
    }
    for (const o of openings) {
      const pos = Position.fromFen(o.fen);
      for (const text of o.moves.slice(0, args.plies)) {
        const m = parseUciMove(pos, text);
        add(pos, m, 1);
        pos.makeMove(m);
      }
      lines++;
    }
  }
  for (const path of args.pgn) {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (e) {
      fail(`cannot read '${path}': ${(e as NodeJS.ErrnoException).code}`);
    }
    let records;
    try {
      records = parsePgn(text, { source: path });
    } catch (e) {
      fail((e as Error).message);
    }
    for (const g of records) {
      if (!['1-0', '0-1', '1/2-1/2'].includes(g.result)) continue;
      const pos = Position.fromFen(pgnStartFen(g));
      for (const { move: m } of g.moves.slice(0, args.plies)) {
        const mover = pos.side;
        const points = g.result === '1/2-1/2' ? 1 : (g.result === '1-0') === (mover === 0) ? 2 : 0;
        add(pos, m!, points);
        pos.makeMove(m!);
      }
      games++;
    }
  }
  const kept = [...stats.values()].filter((s) => s.count >= args.minCount);
  const maxPoints = Math.max(1, ...kept.map((s) => s.points));
  const scale = maxPoints > 0xffff ? 0xffff / maxPoints : 1;
  const entries: BookEntry[] = kept.map((s) => ({ key: s.key, move: s.move, weight: Math.round(s.points * scale), learn: 0 }));
  writeBook(entries, args.out);
  const positions = new Set(kept.map((s) => keyToHex(s.key))).size;
  process.stdout.write(
    `${args.out}: ${entries.length} entries for ${positions} positions from ${lines} opening lines and ${games} games (first ${args.plies} plies)\n`,
  );
}

await runScript('build-book', main);
