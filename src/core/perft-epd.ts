/**
 * Perft suites in EPD form: `FEN ;D1 20 ;D2 400 …`, one position a line (blank lines and lines
 * starting with '#' are skipped). Used by the suite script and the tests, which read the files
 * through scripts/perft-files.ts.
 */

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
