/**
 * The record of a long perft suite run: one text line per finished (suite, backend, depth,
 * position), appended as soon as the count is known, so a run that is stopped can be resumed and
 * the proof accumulates across sessions in a committed file. Format (docs/testing.md):
 *
 *   # comment
 *   <suite> <backend> <depth> <position> <fen-crc32> <count> <expected> <ok|mismatch|error> <wall s> <cpu s> <M nodes/s> <h<MB>|->
 *   chess960 bitboard 6 17 5e0c4b1a 119060324 119060324 ok 25.31 24.90 4.70 h256
 *
 * Each line is written whole by one append; a last line without its newline (a run killed while
 * writing) is ignored by readers and dropped by the next writer, with a note. The file itself is
 * read and appended by scripts/perft-files.ts.
 */
import { crc32 } from './crc32.js';

export type PerftResult = 'ok' | 'mismatch' | 'error';

export interface PerftRecordEntry {
  /** 'chess960', 'standard' or the base name of another EPD file. */
  suite: string;
  backend: string;
  depth: number;
  /** 1-based position number in the suite file. */
  position: number;
  /** CRC-32 of the position's FEN, 8 hex digits: a record never vouches for another suite's line. */
  fenCrc: string;
  /** null when the backend threw. */
  count: number | null;
  expected: number;
  result: PerftResult;
  wallSeconds: number;
  cpuSeconds: number;
  /** Size of the perft table used, 0 for none. */
  hashMb: number;
}

/** The first line of a new record file: what the fields are. */
export const PERFT_RECORD_HEADER =
  '# perft record (docs/testing.md): suite backend depth position fen-crc32 count expected ok|mismatch|error wall-s cpu-s Mnodes/s h<MB>|-';

/** A record file with a malformed or contradictory line. */
export class PerftRecordError extends Error {
  override readonly name = 'PerftRecordError';
}

export function fenChecksum(fen: string): string {
  return crc32(new TextEncoder().encode(fen)).toString(16).padStart(8, '0');
}

/** The identity of an entry: a run skips positions whose key is recorded. */
export function recordKey(suite: string, backend: string, depth: number, position: number): string {
  return `${suite} ${backend} ${depth} ${position}`;
}

export function formatRecordLine(e: PerftRecordEntry): string {
  const rate = e.count === null ? 0 : e.count / Math.max(e.wallSeconds, 1e-6) / 1e6;
  return [
    e.suite,
    e.backend,
    e.depth,
    e.position,
    e.fenCrc,
    e.count ?? '-',
    e.expected,
    e.result,
    e.wallSeconds.toFixed(2),
    e.cpuSeconds.toFixed(2),
    rate.toFixed(2),
    e.hashMb > 0 ? `h${e.hashMb}` : '-',
  ].join(' ');
}

const NAME = /^[A-Za-z0-9._-]+$/;
const INT = /^\d+$/;
const SECONDS = /^\d+(\.\d+)?$/;

function parseLine(line: string, where: string): PerftRecordEntry {
  const f = line.trim().split(/\s+/);
  const bad = (field: string, expected: string, got: string) =>
    new PerftRecordError(`${where}: ${field}: expected ${expected}, got '${got}'`);
  if (f.length !== 12) throw new PerftRecordError(`${where}: expected 12 fields, got ${f.length}`);
  const [suite, backend, depth, position, fenCrc, count, expected, result, wall, cpu, rate, hash] = f;
  if (!NAME.test(suite)) throw bad('suite', 'a name', suite);
  if (!NAME.test(backend)) throw bad('backend', 'a name', backend);
  if (!INT.test(depth) || Number(depth) < 1) throw bad('depth', 'a depth from 1', depth);
  if (!INT.test(position) || Number(position) < 1) throw bad('position', 'a position number from 1', position);
  if (!/^[0-9a-f]{8}$/.test(fenCrc)) throw bad('fen checksum', '8 hex digits', fenCrc);
  if (!INT.test(count) && count !== '-') throw bad('count', "a node count or '-'", count);
  if (!INT.test(expected)) throw bad('expected', 'a node count', expected);
  if (result !== 'ok' && result !== 'mismatch' && result !== 'error') throw bad('result', 'ok, mismatch or error', result);
  if (!SECONDS.test(wall)) throw bad('wall seconds', 'a number', wall);
  if (!SECONDS.test(cpu)) throw bad('cpu seconds', 'a number', cpu);
  if (!SECONDS.test(rate)) throw bad('M nodes/s', 'a number', rate);
  if (!/^(h[1-9]\d*|-)$/.test(hash)) throw bad('hash', "h<MB> or '-'", hash);
  const entry: PerftRecordEntry = {
    suite,
    backend,
    depth: Number(depth),
    position: Number(position),
    fenCrc,
    count: count === '-' ? null : Number(count),
    expected: Number(expected),
    result,
    wallSeconds: Number(wall),
    cpuSeconds: Number(cpu),
    hashMb: hash === '-' ? 0 : Number(hash.slice(1)),
  };
  // The verdict must follow from the numbers, so a hand edit cannot turn a mismatch into a pass.
  const implied: PerftResult = entry.count === null ? 'error' : entry.count === entry.expected ? 'ok' : 'mismatch';
  if (implied !== result) throw bad('result', `'${implied}' for count ${count} and expected ${expected}`, result);
  return entry;
}

export interface PerftRecord {
  /** One entry per key, in file order. */
  entries: PerftRecordEntry[];
  /** Things a reader should be told: an ignored incomplete last line, repeated entries. */
  notes: string[];
}

/** Parses a record; throws PerftRecordError naming the line for a malformed or contradictory one. */
export function parsePerftRecord(text: string, source = 'record'): PerftRecord {
  const notes: string[] = [];
  const lines = text.split('\n');
  const tail = lines.pop() ?? '';
  if (tail.trim() !== '') notes.push(`${source}: ignored an incomplete last line (a run stopped while writing it): '${tail.slice(0, 40)}'`);
  const byKey = new Map<string, PerftRecordEntry>();
  let repeats = 0;
  lines.forEach((raw, i) => {
    const line = raw.replace(/\r$/, '');
    if (line.trim() === '' || line.startsWith('#')) return;
    const e = parseLine(line, `${source}:${i + 1}`);
    const key = recordKey(e.suite, e.backend, e.depth, e.position);
    const seen = byKey.get(key);
    if (!seen) byKey.set(key, e);
    else if (seen.count !== e.count || seen.fenCrc !== e.fenCrc)
      throw new PerftRecordError(`${source}:${i + 1}: ${key} recorded again with count ${e.count ?? '-'}, earlier ${seen.count ?? '-'}`);
    else repeats++;
  });
  if (repeats > 0) notes.push(`${source}: ${repeats} entries recorded twice with the same count (counted once)`);
  return { entries: [...byKey.values()], notes };
}

export interface PerftRecordSummary {
  suite: string;
  backend: string;
  depth: number;
  done: number;
  mismatches: number;
  errors: number;
  nodes: number;
  cpuSeconds: number;
  wallSeconds: number;
  /** Entries counted with a perft table. */
  hashed: number;
}

/** Totals by suite, backend and depth, in order of first appearance. */
export function summarizePerftRecord(entries: PerftRecordEntry[]): PerftRecordSummary[] {
  const rows = new Map<string, PerftRecordSummary>();
  for (const e of entries) {
    const key = `${e.suite} ${e.backend} ${e.depth}`;
    let row = rows.get(key);
    if (!row) {
      row = {
        suite: e.suite,
        backend: e.backend,
        depth: e.depth,
        done: 0,
        mismatches: 0,
        errors: 0,
        nodes: 0,
        cpuSeconds: 0,
        wallSeconds: 0,
        hashed: 0,
      };
      rows.set(key, row);
    }
    row.done++;
    if (e.result === 'mismatch') row.mismatches++;
    if (e.result === 'error') row.errors++;
    row.nodes += e.count ?? 0;
    row.cpuSeconds += e.cpuSeconds;
    row.wallSeconds += e.wallSeconds;
    if (e.hashMb > 0) row.hashed++;
  }
  return [...rows.values()];
}
