/**
 * The full perft suite: every position of perft-standard.epd (or, with --chess960, of the 960
 * published Chess960 positions in perft-chess960.epd) at every listed depth up to --depth
 * (default 6), with the bitboard core, another backend or all three in turn. Reports each
 * mismatch (FEN, depth, expected, got), the total nodes and nodes/s; exits 1 on any mismatch, 2
 * on bad usage.
 *
 *   npm run perft:suite -- [--depth N] [--backend bitboard|matrix|bnn|all] [--positions a-b] [--chess960 | --file PATH]
 *
 * Positions are numbered from 1 in file order. Progress with an ETA (weighted by the expected
 * node counts) goes to stderr on a terminal only, never in pipes or under CI.
 */
import { Position } from '../src/core/position.js';
import { PerftEpdError, chess960SuitePath, readPerftEpd, standardSuitePath, type PerftCase } from '../src/core/perft-epd.js';
import { BACKEND_NAMES, getBackend } from '../src/backends.js';
import type { LegalMoveGenerator } from '../src/core/backend.js';
import { perft } from '../src/core/perft.js';
import { parseCommandArgs, parseIntIn } from '../src/cmdline/args.js';
import { UsageError, runScript } from '../src/cmdline/errors.js';
import { createProgress } from '../src/cmdline/progress.js';

interface Options {
  depth: number;
  backend: string;
  from: number;
  to: number;
  file?: string;
  chess960: boolean;
}

const USAGE = 'usage: npm run perft:suite -- [--depth N] [--backend bitboard|matrix|bnn|all] [--positions a-b] [--chess960 | --file PATH]';

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
      help: { type: 'boolean', short: 'h' },
    },
    0,
  );
  if (values.help === true) return null;
  const str = (name: string): string | undefined => values[name] as string | undefined;
  const opts: Options = {
    depth: str('depth') === undefined ? 6 : parseIntIn('--depth', str('depth'), 1, 20),
    backend: str('backend') ?? 'bitboard',
    from: 1,
    to: Infinity,
    file: str('file'),
    chess960: values.chess960 === true,
  };
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

interface Job {
  c: PerftCase;
  depth: number;
  expected: number;
}

function run(opts: Options, backend: LegalMoveGenerator, suite: PerftCase[]): number {
  const selected = suite.filter((c) => c.index >= opts.from && c.index <= opts.to);
  if (selected.length === 0)
    throw new UsageError(`--positions ${opts.from}-${opts.to} selects nothing (the file has ${suite.length} positions)`);
  const jobs: Job[] = [];
  for (const c of selected) {
    for (const [depth, expected] of [...c.counts].sort((a, b) => a[0] - b[0])) {
      if (depth <= opts.depth) jobs.push({ c, depth, expected });
    }
  }
  const planned = jobs.reduce((s, j) => s + j.expected, 0);
  const last = selected[selected.length - 1].index;
  console.log(
    `perft suite: backend ${backend.name}, positions ${selected[0].index}-${last} of ${suite.length}, depths up to ${opts.depth}: ${jobs.length} counts, ${planned.toLocaleString('en-US')} nodes expected`,
  );

  const progress = createProgress('perft suite');
  const mismatches: string[] = [];
  let nodes = 0,
    doneExpected = 0;
  const t0 = process.hrtime.bigint();
  for (const job of jobs) {
    let got: number | string;
    try {
      got = perft(Position.fromFen(job.c.fen), job.depth, backend);
      nodes += got;
    } catch (err) {
      // A bad FEN in the file or a crashing backend is a failure of this count, not of the run.
      got = `error: ${(err as Error).message}`;
    }
    doneExpected += job.expected;
    if (got !== job.expected) {
      const line = `MISMATCH #${job.c.index} ${job.c.fen} depth ${job.depth}: expected ${job.expected}, got ${got}`;
      mismatches.push(line);
      progress.finish();
      console.log(line);
    }
    progress.update(doneExpected, planned);
  }
  progress.finish();
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const nps = nodes / Math.max(seconds, 1e-9);
  console.log(
    `${mismatches.length === 0 ? 'OK' : `FAILED: ${mismatches.length} mismatches`}: ${jobs.length} counts on ${selected.length} positions, ` +
      `${nodes.toLocaleString('en-US')} nodes in ${seconds.toFixed(1)} s, ${(nps / 1e6).toFixed(1)} M nodes/s`,
  );
  return mismatches.length === 0 ? 0 : 1;
}

async function main(): Promise<number> {
  const opts = parseArgs(process.argv.slice(2));
  if (opts === null) {
    console.log(USAGE);
    return 0;
  }
  const suite = readSuite(opts.file, opts.chess960);
  let status = 0;
  for (const name of opts.backend === 'all' ? BACKEND_NAMES : [opts.backend]) {
    let backend: LegalMoveGenerator;
    try {
      backend = await getBackend(name);
    } catch (err) {
      throw new UsageError(`--backend: ${(err as Error).message}`);
    }
    status = Math.max(status, run(opts, backend, suite));
  }
  return status;
}

await runScript('perft-suite', main);
