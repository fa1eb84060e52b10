/**
 * Regenerates web/openings/openings.tsv, the opening names the web app shows, from lichess's
 * opening list (github.com/lichess-org/chess-openings, CC0): its a.tsv … e.tsv (columns eco,
 * name, pgn). Each line's moves are replayed by our core; the position at its end is the key.
 *
 * Usage: node dist/scripts/openings.js --source DIR [--out FILE]
 *   DIR: a checkout of chess-openings (the five .tsv files in it), or a bare git repository of it
 *   (read with `git show HEAD:a.tsv`).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Position } from '../src/core/position.js';
import { START_FEN } from '../src/core/fen.js';
import { parseSan } from '../src/core/notation.js';
import { parseCommandArgs } from '../src/cmdline/args.js';
import { UsageError, runScript } from '../src/cmdline/errors.js';
import { repoRoot } from './build-web.js';

const FILES = ['a.tsv', 'b.tsv', 'c.tsv', 'd.tsv', 'e.tsv'];

/** The lookup key of a position: placement, side to move, castling (no en passant), as web/openings.ts reads it. */
export function openingKey(fen: string): string {
  return fen.split(/\s+/).slice(0, 3).join(' ');
}

export interface OpeningLine {
  eco: string;
  name: string;
  pgn: string;
}

/** The rows of one of the list's files (a header line `eco name pgn`, then tab-separated rows). */
export function parseOpeningTsv(text: string, file: string): OpeningLine[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  if (lines[0].trim() !== 'eco\tname\tpgn') throw new UsageError(`${file}: expected the header 'eco<TAB>name<TAB>pgn'`);
  const out: OpeningLine[] = [];
  lines.slice(1).forEach((line, i) => {
    if (line.trim() === '') return;
    const [eco, name, pgn] = line.split('\t');
    if (!/^[A-E]\d\d$/.test(eco ?? '') || !name || !pgn) throw new UsageError(`${file}:${i + 2}: expected eco, name and pgn columns`);
    out.push({ eco, name, pgn });
  });
  return out;
}

/** The key of the position at the end of a line's moves (SAN with move numbers). */
export function lineEndKey(pgn: string): string {
  const pos = Position.fromFen(START_FEN);
  for (const tok of pgn.split(/\s+/)) {
    if (tok === '' || /^\d+\.+$/.test(tok)) continue;
    pos.makeMove(parseSan(pos, tok));
  }
  return openingKey(pos.toFen());
}

/**
 * The data file: one `key<TAB>eco<TAB>name` line per position, in the list's order. When two lines
 * reach the same position (transpositions), the first one in the list keeps it.
 */
export function buildOpeningTable(rows: OpeningLine[]): { text: string; positions: number; duplicates: number } {
  const seen = new Map<string, OpeningLine>();
  let duplicates = 0;
  for (const r of rows) {
    const key = lineEndKey(r.pgn);
    if (seen.has(key)) duplicates++;
    else seen.set(key, r);
  }
  const body = [...seen].map(([key, r]) => `${key}\t${r.eco}\t${r.name}`);
  return { text: body.join('\n') + '\n', positions: seen.size, duplicates };
}

function readSource(source: string, file: string): string {
  const direct = join(source, file);
  if (existsSync(direct)) return readFileSync(direct, 'utf8');
  try {
    return execFileSync('git', ['-C', source, 'show', `HEAD:${file}`], { encoding: 'utf8', maxBuffer: 16 << 20 });
  } catch {
    throw new UsageError(`--source: ${source} has no ${file} (expected a chess-openings checkout or its git repository)`);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await runScript('openings', () => {
    const { values } = parseCommandArgs('openings', process.argv.slice(2), { source: { type: 'string' }, out: { type: 'string' } }, 0);
    const source = values.source as string | undefined;
    if (!source) throw new UsageError('--source: missing, expected the chess-openings checkout or git repository');
    const rows = FILES.flatMap((f) => parseOpeningTsv(readSource(source, f), f));
    const table = buildOpeningTable(rows);
    const out = (values.out as string | undefined) ?? join(repoRoot(), 'web', 'openings', 'openings.tsv');
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, table.text);
    console.log(
      `openings: ${rows.length} lines, ${table.positions} positions (${table.duplicates} lines reach a position named before) -> ${out}`,
    );
  });
}
