/**
 * The perft suite's files on disk: the EPD suites (the committed standard and Chess960 ones, or
 * any other path) and the record file of long runs, appended line by line. The formats are the
 * core's (src/core/perft-epd.ts, src/core/perft-record.ts); this is the Node side that reads and
 * writes them, for scripts/perft-suite.ts and the tests.
 */
import { closeSync, existsSync, fstatSync, ftruncateSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PerftEpdError, parsePerftEpd, type PerftCase } from '../src/core/perft-epd.js';
import {
  PERFT_RECORD_HEADER,
  PerftRecordError,
  formatRecordLine,
  parsePerftRecord,
  type PerftRecord,
  type PerftRecordEntry,
} from '../src/core/perft-record.js';

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

/** This file is dist/scripts/perft-files.js once built, so the repository is two folders up. */
function suitePath(name: string): string {
  const candidates = [new URL(`../../test/data/${name}`, import.meta.url), new URL(`../../../shared/data/${name}`, import.meta.url)].map(
    (u) => fileURLToPath(u),
  );
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new PerftEpdError(`${name} not found (looked in ${candidates.join(', ')})`);
  return found;
}

/** The record in `path`; an absent file is an empty record. */
export function readPerftRecord(path: string): PerftRecord {
  return existsSync(path) ? parsePerftRecord(readFileSync(path, 'utf8'), path) : { entries: [], notes: [] };
}

/**
 * Appends entries to a record file, one whole line per write (O_APPEND, so runs of different
 * backends can share the file). Opening drops an incomplete last line left by a killed run.
 */
export class PerftRecorder {
  private readonly fd: number;
  /** Set when opening dropped an incomplete last line. */
  readonly note: string | undefined;

  constructor(readonly path: string) {
    this.fd = openSync(path, 'a+');
    this.note = this.dropIncompleteTail();
    if (fstatSync(this.fd).size === 0) writeSync(this.fd, PERFT_RECORD_HEADER + '\n');
  }

  append(e: PerftRecordEntry): void {
    writeSync(this.fd, formatRecordLine(e) + '\n');
  }

  close(): void {
    closeSync(this.fd);
  }

  private dropIncompleteTail(): string | undefined {
    const size = fstatSync(this.fd).size;
    if (size === 0) return undefined;
    // Lines are short: the last complete one ends within the final few KB.
    const n = Math.min(size, 4096);
    const buf = Buffer.alloc(n);
    readSync(this.fd, buf, 0, n, size - n);
    if (buf[n - 1] === 0x0a) return undefined;
    const cut = buf.lastIndexOf(0x0a);
    if (cut < 0 && n < size) throw new PerftRecordError(`${this.path}: last line longer than ${n} bytes; not a perft record`);
    const keep = size - n + cut + 1;
    ftruncateSync(this.fd, keep);
    return `${this.path}: dropped an incomplete last line (a run stopped while writing it): '${buf.subarray(cut + 1, Math.min(n, cut + 41)).toString('utf8')}'`;
  }
}
