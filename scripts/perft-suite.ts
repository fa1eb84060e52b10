/**
 * The full perft suite: every position of perft-standard.epd (or, with --chess960, of the 960
 * published Chess960 positions in perft-chess960.epd) at every listed depth up to --depth
 * (default 6), or at --only-depth N alone, with the bitboard core, another backend or all three
 * in turn. Reports each mismatch (FEN, depth, expected, got), the total nodes and nodes/s; exits
 * 1 on any mismatch, 2 on bad usage.
 *
 *   npm run perft:suite -- [--depth N | --only-depth N] [--backend bitboard|matrix|bnn|all] [--positions a-b]
 *                          [--chess960 | --file PATH] [--hash MB] [--record FILE]
 *   npm run perft:suite -- --summary FILE
 *
 * --record appends one line per finished count to FILE (src/core/perft-record.ts's format) and skips the
 * counts FILE already holds, so the same command resumes a stopped run; --summary totals such a
 * file. --hash counts with a perft table of that many MB. Positions are numbered from 1 in file
 * order. Progress with an ETA (weighted by the expected node counts of what is left to run) goes
 * to stderr on a terminal only, never in pipes or under CI.
 */
import { basename, extname } from 'node:path';
import { Position } from '../src/core/position.js';
import { PerftEpdError, type PerftCase } from '../src/core/perft-epd.js';
import { PerftRecordError, fenChecksum, recordKey, summarizePerftRecord, type PerftRecordEntry } from '../src/core/perft-record.js';
import { PerftRecorder, chess960SuitePath, readPerftEpd, readPerftRecord, standardSuitePath } from './perft-files.js';
import { PERFT_TABLE_MAX_MB, PerftTable } from '../src/core/perft-table.js';
import { BACKEND_NAMES } from '../src/backends.js';
import { getBackend } from '../src/backends-node.js';
import type { LegalMoveGenerator } from '../src/core/backend.js';
import { perft } from '../src/core/perft.js';
import { parseCommandArgs, parseIntIn } from '../src/cmdline/args.js';
import { UsageError, runScript } from '../src/cmdline/errors.js';
import { createProgress, formatSeconds } from '../src/cmdline/progress.js';

interface Options {
  /** Counts at depths minDepth..depth are run. */
  depth: number;
  minDepth: number;
  backend: string;
  from: number;
  to: number;
  file?: string;
  chess960: boolean;
  hashMb: number;
  record?: string;
  summary?: string;
}

const USAGE =
  'usage: npm run perft:suite -- [--depth N | --only-depth N] [--backend bitboard|matrix|bnn|all] [--positions a-b] ' +
  '[--chess960 | --file PATH] [--hash MB] [--record FILE]\n       npm run perft:suite -- --summary FILE';

/** Options, or null when help was asked for. */
function parseArgs(args: string[]): Options | null {
  const { values } = parseCommandArgs(
    'perft-suite',
    args,
    {
      depth: { type: 'string' },
      backend: { type: 'string' },
      positions: { type: 'string' },
      file: { type: 'string' },
      chess960: { type: 'boolean' },
      'only-depth': { type: 'string' },
      hash: { type: 'string' },
      record: { type: 'string' },
      summary: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    0,
  );
  if (values.help === true) return null;
  const str = (name: string): string | undefined => values[name] as string | undefined;
  if (str('depth') !== undefined && str('only-depth') !== undefined)
    throw new UsageError('--depth (all depths up to N) and --only-depth (depth N alone) exclude each other');
  const only = str('only-depth') === undefined ? undefined : parseIntIn('--only-depth', str('only-depth'), 1, 20);
  const depth = only ?? (str('depth') === undefined ? 6 : parseIntIn('--depth', str('depth'), 1, 20));
  const opts: Options = {
    depth,
    minDepth: only ?? 1,
    backend: str('backend') ?? 'bitboard',
    from: 1,
    to: Infinity,
    file: str('file'),
    chess960: values.chess960 === true,
    hashMb: str('hash') === undefined ? 0 : parseIntIn('--hash', str('hash'), 1, PERFT_TABLE_MAX_MB),
    record: str('record'),
    summary: str('summary'),
  };
  if (opts.summary !== undefined && args.filter((a) => a.startsWith('--')).length > 1)
    throw new UsageError('--summary FILE prints the totals of a record and takes no other option');
  if (opts.chess960 && opts.file !== undefined) throw new UsageError('--chess960 picks the Chess960 suite file; do not give --file too');
  const v = str('positions');
  if (v !== undefined) {
    const m = /^(\d+)(?:-(\d+)?)?$/.exec(v);
    if (!m || Number(m[1]) < 1 || (m[2] !== undefined && Number(m[2]) < Number(m[1]))) {
      throw new UsageError(`--positions expects N or A-B (1-based, A <= B) or A-, got '${v}'`);
    }
    opts.from = Number(m[1]);
    opts.to = m[2] !== undefined ? Number(m[2]) : v.endsWith('-') ? Infinity : Number(m[1]);
  }
  return opts;
}

function readSuite(path: string | undefined, chess960: boolean): PerftCase[] {
  try {
    return readPerftEpd(path ?? (chess960 ? chess960SuitePath() : standardSuitePath()));
  } catch (err) {
    if (err instanceof PerftEpdError)
      throw new UsageError(path === undefined ? `${err.message}; pass --file PATH` : `--file: ${err.message}`);
    throw err;
  }
}

/** The suite's name in a record: 'chess960', 'standard' or the EPD file's base name. */
function suiteName(opts: Options): string {
  if (opts.file === undefined) return opts.chess960 ? 'chess960' : 'standard';
  return basename(opts.file, extname(opts.file)).replace(/[^A-Za-z0-9._-]/g, '_');
}

interface Job {
  c: PerftCase;
  depth: number;
  expected: number;
}

/** Where a run writes and what it already holds; null without --record. */
interface RecordState {
  recorder: PerftRecorder;
  done: Map<string, PerftRecordEntry>;
}

function mismatchLine(c: PerftCase, depth: number, expected: number, got: number | string, suffix = ''): string {
  return `MISMATCH #${c.index} ${c.fen} depth ${depth}: expected ${expected}, got ${got}${suffix}`;
}

function run(opts: Options, backend: LegalMoveGenerator, suite: PerftCase[], record: RecordState | null, table: PerftTable | null): number {
  const selected = suite.filter((c) => c.index >= opts.from && c.index <= opts.to);
  if (selected.length === 0)
    throw new UsageError(`--positions ${opts.from}-${opts.to} selects nothing (the file has ${suite.length} positions)`);
  const name = suiteName(opts);
  const jobs: Job[] = [];
  const mismatches: string[] = [];
  let resumed = 0;
  for (const c of selected) {
    for (const [depth, expected] of [...c.counts].sort((a, b) => a[0] - b[0])) {
      if (depth < opts.minDepth || depth > opts.depth) continue;
      const prior = record?.done.get(recordKey(name, backend.name, depth, c.index));
      if (prior === undefined) {
        jobs.push({ c, depth, expected });
        continue;
      }
      if (prior.fenCrc !== fenChecksum(c.fen) || prior.expected !== expected)
        throw new UsageError(
          `--record: ${record?.recorder.path} holds ${name} #${c.index} depth ${depth} for another position or count (the suite file changed?)`,
        );
      resumed++;
      if (prior.result !== 'ok') mismatches.push(mismatchLine(c, depth, expected, prior.count ?? 'error', ' (recorded)'));
    }
  }
  const planned = jobs.reduce((s, j) => s + j.expected, 0);
  const last = selected[selected.length - 1].index;
  const depths = opts.minDepth === opts.depth ? `depth ${opts.depth} only` : `depths up to ${opts.depth}`;
  console.log(
    `perft suite: backend ${backend.name}, positions ${selected[0].index}-${last} of ${suite.length}, ${depths}: ${jobs.length} counts, ${planned.toLocaleString('en-US')} nodes expected` +
      (table ? `, perft table ${table.bytes / 1048576} MB` : ''),
  );
  if (record) console.log(`resumed: ${resumed} already done`);
  for (const line of mismatches) console.log(line);

  const progress = createProgress('perft suite');
  let nodes = 0,
    doneExpected = 0;
  const t0 = process.hrtime.bigint();
  for (const job of jobs) {
    progress.update(doneExpected, planned, `#${job.c.index} depth ${job.depth}`);
    let got: number | string;
    const w0 = process.hrtime.bigint(),
      c0 = process.cpuUsage();
    try {
      got = perft(Position.fromFen(job.c.fen), job.depth, backend, table ?? undefined);
      nodes += got;
    } catch (err) {
      // A bad FEN in the file or a crashing backend is a failure of this count, not of the run.
      got = `error: ${(err as Error).message}`;
    }
    const cpu = process.cpuUsage(c0);
    record?.recorder.append({
      suite: name,
      backend: backend.name,
      depth: job.depth,
      position: job.c.index,
      fenCrc: fenChecksum(job.c.fen),
      count: typeof got === 'number' ? got : null,
      expected: job.expected,
      result: typeof got !== 'number' ? 'error' : got === job.expected ? 'ok' : 'mismatch',
      wallSeconds: Number(process.hrtime.bigint() - w0) / 1e9,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      hashMb: table ? table.bytes / 1048576 : 0,
    });
    doneExpected += job.expected;
    if (got !== job.expected) {
      const line = mismatchLine(job.c, job.depth, job.expected, got);
      mismatches.push(line);
      progress.finish();
      console.log(line);
    }
  }
  progress.finish();
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const nps = nodes / Math.max(seconds, 1e-9);
  console.log(
    `${mismatches.length === 0 ? 'OK' : `FAILED: ${mismatches.length} mismatches`}: ${jobs.length} counts${resumed > 0 ? ` (+${resumed} recorded)` : ''} on ${selected.length} positions, ` +
      `${nodes.toLocaleString('en-US')} nodes in ${seconds.toFixed(1)} s, ${(nps / 1e6).toFixed(1)} M nodes/s`,
  );
  return mismatches.length === 0 ? 0 : 1;
}

/** How many positions of a known suite have a count at `depth`; undefined for other suites. */
function suiteTotal(suite: string, depth: number, cache: Map<string, PerftCase[]>): number | undefined {
  const path = suite === 'chess960' ? chess960SuitePath() : suite === 'standard' ? standardSuitePath() : undefined;
  if (path === undefined) return undefined;
  let cases = cache.get(path);
  if (!cases) cache.set(path, (cases = readPerftEpd(path)));
  return cases.filter((c) => c.counts.has(depth)).length;
}

/** Hours for the long totals a closing note quotes, the progress display's format below that. */
function duration(seconds: number): string {
  return seconds >= 3600 ? `${(seconds / 3600).toFixed(2)}h` : formatSeconds(seconds);
}

/** The totals of a record file, by suite, backend and depth; 1 when any count is wrong. */
function printSummary(path: string): number {
  const { entries, notes } = readRecord(path, '--summary');
  for (const note of notes) console.log(`note: ${note}`);
  const rows = summarizePerftRecord(entries);
  if (rows.length === 0) {
    console.log(`${path}: no entries`);
    return 0;
  }
  const cache = new Map<string, PerftCase[]>();
  const table = [['suite', 'backend', 'depth', 'done', 'nodes', 'mismatches', 'cpu', 'wall', 'hashed']];
  for (const r of rows) {
    const total = suiteTotal(r.suite, r.depth, cache);
    table.push([
      r.suite,
      r.backend,
      String(r.depth),
      `${r.done}/${total ?? '?'}`,
      r.nodes.toLocaleString('en-US'),
      String(r.mismatches + r.errors),
      duration(r.cpuSeconds),
      duration(r.wallSeconds),
      String(r.hashed),
    ]);
  }
  const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)));
  for (const row of table)
    console.log(
      row
        .map((cell, i) => (i === 4 ? cell.padStart(widths[i]) : cell.padEnd(widths[i])))
        .join('  ')
        .trimEnd(),
    );
  return rows.some((r) => r.mismatches + r.errors > 0) ? 1 : 0;
}

function readRecord(path: string, flag: string): ReturnType<typeof readPerftRecord> {
  try {
    return readPerftRecord(path);
  } catch (err) {
    if (err instanceof PerftRecordError) throw new UsageError(`${flag}: ${err.message}`);
    throw err;
  }
}

/** Opens the record for appending (which drops an incomplete last line), then reads what it holds. */
function openRecord(path: string): RecordState {
  let recorder: PerftRecorder;
  try {
    recorder = new PerftRecorder(path);
  } catch (err) {
    throw new UsageError(`--record: ${(err as Error).message}`);
  }
  if (recorder.note) console.log(`note: ${recorder.note}`);
  const { entries, notes } = readRecord(path, '--record');
  for (const note of notes) console.log(`note: ${note}`);
  return { recorder, done: new Map(entries.map((e) => [recordKey(e.suite, e.backend, e.depth, e.position), e])) };
}

async function main(): Promise<number> {
  const opts = parseArgs(process.argv.slice(2));
  if (opts === null) {
    console.log(USAGE);
    return 0;
  }
  if (opts.summary !== undefined) return printSummary(opts.summary);
  const suite = readSuite(opts.file, opts.chess960);
  const record = opts.record === undefined ? null : openRecord(opts.record);
  const table = opts.hashMb > 0 ? new PerftTable(opts.hashMb) : null;
  let status = 0;
  try {
    for (const name of opts.backend === 'all' ? BACKEND_NAMES : [opts.backend]) {
      let backend: LegalMoveGenerator;
      try {
        backend = await getBackend(name);
      } catch (err) {
        throw new UsageError(`--backend: ${(err as Error).message}`);
      }
      // Each backend fills its own table: a count another backend found proves nothing about this one.
      table?.clear();
      status = Math.max(status, run(opts, backend, suite, record, table));
    }
  } finally {
    record?.recorder.close();
  }
  return status;
}

await runScript('perft-suite', main);
