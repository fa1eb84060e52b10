/**
 * Perft suites in EPD form: `FEN ;D1 20 ;D2 400 …`, one position a line (blank lines and lines
 * starting with '#' are skipped). Used by the suite script, the tests and the benchmarks.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface PerftCase {
  /** 1-based position number in the file (comments and blank lines not counted). */
  index: number;
  /** 1-based line number in the file. */
  line: number;
  fen: string;
  /** Expected leaf count by depth. */
  counts: Map<number, number>;
}

/** A suite file that is missing or has a malformed line. */
export class PerftEpdError extends Error {
  override readonly name = 'PerftEpdError';
}

export function parsePerftEpd(text: string, source = 'EPD'): PerftCase[] {
  const cases: PerftCase[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    if (raw.trim() === '' || raw.startsWith('#')) return;
    const [fen, ...fields] = raw.split(';');
    const counts = new Map<number, number>();
    for (const field of fields) {
      const m = /^\s*D(\d+)\s+(\d+)\s*$/.exec(field);
      if (!m) throw new PerftEpdError(`${source}:${i + 1}: expected ';D<depth> <nodes>', got '${field.trim()}'`);
      counts.set(Number(m[1]), Number(m[2]));
    }
    cases.push({ index: cases.length + 1, line: i + 1, fen: fen.trim(), counts });
  });
  return cases;
}

export function readPerftEpd(path: string): PerftCase[] {
  if (!existsSync(path)) throw new PerftEpdError(`no such file '${path}'`);
  return parsePerftEpd(readFileSync(path, 'utf8'), path);
}

/**
 * The standard suite (127 positions to depth 6): the copy committed under test/data, else the
 * shared data folder beside the clone.
 */
export function standardSuitePath(): string {
  return suitePath('perft-standard.epd');
}

/** The Chess960 suite (960 published positions to depth 6, Shredder-FEN castling), committed under test/data. */
export function chess960SuitePath(): string {
  return suitePath('perft-chess960.epd');
}

function suitePath(name: string): string {
  const candidates = [
    new URL(`../../../test/data/${name}`, import.meta.url),
    new URL(`../../../../shared/data/${name}`, import.meta.url),
  ].map((u) => fileURLToPath(u));
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new PerftEpdError(`${name} not found (looked in ${candidates.join(', ')})`);
  return found;
}
