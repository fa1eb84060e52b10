/**
 * Perft speed of the bitboard core against chessops 0.15 (its own perft from chessops/debug,
 * which clones per move and bulk-counts the last ply like ours) and Stockfish (`go perft N`
 * over UCI, timed from sending the command to the "Nodes searched" line, nothing subtracted).
 * Single thread each. Runs are interleaved (ours, chessops, stockfish, other backends, repeat)
 * and each figure is the median of --runs runs, so the ratios compare like with like on a
 * shared, noisy machine. Every node count is checked against the published one.
 *
 *   npm run bench:perft -- [--runs 3] [--depth 6,5] [--chessops-depth 5,4] [--backend matrix]...
 *                          [--stockfish /usr/games/stockfish] [--no-stockfish] [--no-chessops]
 *
 * Depth lists give the start position's depth, then Kiwipete's (one number applies to both).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseFen } from 'chessops/fen';
import { Chess } from 'chessops/chess';
import { perft as chessopsPerft } from 'chessops/debug';
import { Position } from '../src/core/position.js';
import { START_FEN } from '../src/core/fen.js';
import { perft as corePerft } from '../src/core/perft.js';
import { getBackend } from '../src/backends-node.js';
import { parseCommandArgs, parseIntIn } from '../src/cmdline/args.js';
import { UsageError, runScript } from '../src/cmdline/errors.js';
import { createProgress } from '../src/cmdline/progress.js';
import { median } from './median.js';

const KIWIPETE = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';

/** Published perft counts (index = depth). */
const POSITIONS = [
  { name: 'start', fen: START_FEN, counts: [1, 20, 400, 8902, 197281, 4865609, 119060324, 3195901860] },
  { name: 'kiwipete', fen: KIWIPETE, counts: [1, 48, 2039, 97862, 4085603, 193690690, 8031647685] },
];

interface Options {
  runs: number;
  depths: number[];
  chessopsDepths: number[];
  backends: string[];
  stockfish: string;
  useStockfish: boolean;
  useChessops: boolean;
}

function depthList(flag: string, v: string): number[] {
  const parts = v.split(',');
  if (parts.length > POSITIONS.length || !parts.every((p) => /^\d+$/.test(p) && Number(p) >= 1)) {
    throw new UsageError(`${flag} expects a depth or 'start,kiwipete' depths (whole numbers >= 1), got '${v}'`);
  }
  const depths = POSITIONS.map((_, i) => Number(parts[Math.min(i, parts.length - 1)]));
  depths.forEach((d, i) => {
    if (d >= POSITIONS[i].counts.length)
      throw new UsageError(
        `${flag}: ${POSITIONS[i].name} depth ${d} is above the largest published count (${POSITIONS[i].counts.length - 1})`,
      );
  });
  return depths;
}

function parseArgs(args: string[]): Options {
  const { values } = parseCommandArgs(
    'perft-bench',
    args,
    {
      runs: { type: 'string' },
      depth: { type: 'string' },
      'chessops-depth': { type: 'string' },
      backend: { type: 'string', multiple: true },
      stockfish: { type: 'string' },
      'no-stockfish': { type: 'boolean' },
      'no-chessops': { type: 'boolean' },
    },
    0,
  );
  const str = (name: string): string | undefined => values[name] as string | undefined;
  return {
    runs: str('runs') === undefined ? 3 : parseIntIn('--runs', str('runs'), 1, 99),
    depths: str('depth') === undefined ? [6, 5] : depthList('--depth', str('depth')!),
    chessopsDepths: str('chessops-depth') === undefined ? [5, 4] : depthList('--chessops-depth', str('chessops-depth')!),
    backends: (values.backend as string[] | undefined) ?? [],
    stockfish: str('stockfish') ?? '/usr/games/stockfish',
    useStockfish: values['no-stockfish'] !== true,
    useChessops: values['no-chessops'] !== true,
  };
}

/** A Stockfish process kept alive across runs; one `go perft` at a time. */
class StockfishPerft {
  private readonly proc: ChildProcessWithoutNullStreams;
  private waiter?: { test: (line: string) => boolean; resolve: (line: string) => void; reject: (err: Error) => void };
  private exited?: Error;
  version = '';

  constructor(path: string) {
    this.proc = spawn(path, [], { stdio: ['pipe', 'pipe', 'pipe'] });
    const fail = (err: Error) => {
      this.exited = err;
      this.waiter?.reject(err);
      this.waiter = undefined;
    };
    this.proc.on('error', (err) => fail(new Error(`stockfish failed to start: ${err.message}`)));
    this.proc.on('exit', (code) => fail(new Error(`stockfish exited (code ${code})`)));
    createInterface({ input: this.proc.stdout }).on('line', (line) => {
      if (line.startsWith('id name ')) this.version = line.slice(8);
      if (this.waiter?.test(line)) {
        const w = this.waiter;
        this.waiter = undefined;
        w.resolve(line);
      }
    });
  }

  private waitFor(test: (line: string) => boolean): Promise<string> {
    if (this.exited) return Promise.reject(this.exited);
    return new Promise((resolve, reject) => {
      this.waiter = { test, resolve, reject };
    });
  }

  async start(): Promise<void> {
    const ok = this.waitFor((l) => l === 'uciok');
    this.proc.stdin.write('uci\n');
    await ok;
    const ready = this.waitFor((l) => l === 'readyok');
    this.proc.stdin.write('isready\n');
    await ready;
  }

  /** Nodes, wall time from sending `go perft` to the result line, and Stockfish's CPU time. */
  async perft(fen: string, depth: number): Promise<Timing> {
    const done = this.waitFor((l) => l.startsWith('Nodes searched'));
    this.proc.stdin.write(`position fen ${fen}\n`);
    const cpu0 = this.cpuMs();
    const t0 = process.hrtime.bigint();
    this.proc.stdin.write(`go perft ${depth}\n`);
    const line = await done;
    const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
    return { nodes: Number(/Nodes searched:\s*(\d+)/.exec(line)![1]), wallMs, cpuMs: this.cpuMs() - cpu0 };
  }

  /** User + system CPU time of the process from /proc (Linux; NaN elsewhere), in ms. */
  private cpuMs(): number {
    try {
      const stat = readFileSync(`/proc/${this.proc.pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // Fields 14 and 15 of stat (utime, stime) in clock ticks; USER_HZ is 100 on Linux.
      return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
    } catch {
      return NaN;
    }
  }

  quit(): void {
    this.proc.removeAllListeners('exit');
    this.proc.stdin.end('quit\n');
  }
}

interface Timing {
  nodes: number;
  wallMs: number;
  cpuMs: number;
}

interface Contender {
  name: string;
  depths: number[];
  run(fen: string, depth: number): Promise<Timing>;
}

/** Wall and CPU time of a synchronous in-process perft (CPU time resists the other load). */
function timed(f: () => number): Promise<Timing> {
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const nodes = f();
  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const c = process.cpuUsage(c0);
  return Promise.resolve({ nodes, wallMs, cpuMs: (c.user + c.system) / 1000 });
}

const fmtRate = (nps: number) => (Number.isFinite(nps) ? (nps / 1e6).toFixed(2) : '-');

async function main(): Promise<number> {
  const opts = parseArgs(process.argv.slice(2));
  const contenders: Contender[] = [
    { name: 'ours (bitboard)', depths: opts.depths, run: (fen, d) => timed(() => corePerft(Position.fromFen(fen), d)) },
  ];
  if (opts.useChessops) {
    contenders.push({
      name: 'chessops 0.15',
      depths: opts.chessopsDepths,
      run: (fen, d) => timed(() => chessopsPerft(Chess.fromSetup(parseFen(fen).unwrap()).unwrap(), d, false)),
    });
  }
  let stockfish: StockfishPerft | undefined;
  const notes: string[] = [];
  if (opts.useStockfish) {
    if (!existsSync(opts.stockfish)) {
      notes.push(`stockfish skipped: not found at ${opts.stockfish} (install the Debian package or pass --stockfish PATH)`);
    } else {
      stockfish = new StockfishPerft(opts.stockfish);
      await stockfish.start();
      const sf = stockfish;
      contenders.push({ name: sf.version || 'stockfish', depths: opts.depths, run: (fen, d) => sf.perft(fen, d) });
    }
  }
  for (const name of opts.backends) {
    let backend;
    try {
      backend = await getBackend(name);
    } catch (err) {
      throw new UsageError(`--backend: ${(err as Error).message}`);
    }
    const b = backend;
    contenders.push({
      name: `backend ${b.name}`,
      depths: opts.chessopsDepths,
      run: (fen, d) => timed(() => corePerft(Position.fromFen(fen), d, b)),
    });
  }

  // Warm-up: a cold first perft runs partly unoptimised (JIT tier-up and deopts on rarely seen
  // moves), so every contender first runs every position one ply shallower (at most depth 4).
  for (const c of contenders)
    for (let pi = 0; pi < POSITIONS.length; pi++) await c.run(POSITIONS[pi].fen, Math.max(1, Math.min(c.depths[pi] - 1, 4)));

  // wall/cpu[contender][position] = nodes/s of each run; a wrong count is reported and fails the bench.
  const wall = contenders.map(() => POSITIONS.map(() => [] as number[]));
  const cpu = contenders.map(() => POSITIONS.map(() => [] as number[]));
  const wrong: string[] = [];
  const progress = createProgress('perft bench');
  const units = opts.runs * contenders.length * POSITIONS.length;
  let done = 0;
  for (let r = 0; r < opts.runs; r++) {
    for (let ci = 0; ci < contenders.length; ci++) {
      const c = contenders[ci];
      for (let pi = 0; pi < POSITIONS.length; pi++) {
        const p = POSITIONS[pi],
          depth = c.depths[pi];
        const t = await c.run(p.fen, depth);
        if (t.nodes !== p.counts[depth]) wrong.push(`${c.name} ${p.name} depth ${depth}: ${t.nodes} nodes, expected ${p.counts[depth]}`);
        wall[ci][pi].push(t.nodes / (t.wallMs / 1000));
        // Below ~50 ms the CPU clock (10 ms ticks for Stockfish) is too coarse to mean anything.
        cpu[ci][pi].push(t.cpuMs >= 50 ? t.nodes / (t.cpuMs / 1000) : NaN);
        progress.update(++done, units);
      }
    }
  }
  progress.finish();
  stockfish?.quit();

  console.log(`perft bench: single thread, M nodes/s, median of ${opts.runs} interleaved runs (each run listed after it).`);
  console.log('The machine is shared and noisy: compare the ratios, measured in the same run, not absolute figures.');
  console.log('Wall-clock rates suffer from the other load; CPU-time rates (user + system of the contender) much less.');
  report('wall clock', wall);
  report('CPU time', cpu);
  for (const n of notes) console.log(`  note: ${n}`);
  for (const w of wrong) console.log(`  WRONG COUNT: ${w}`);
  return wrong.length === 0 ? 0 : 1;

  function report(label: string, rates: number[][][]): void {
    const med = rates.map((perPos) => perPos.map(median));
    console.log(`${label}:`);
    const head = ['contender', ...POSITIONS.map((p) => p.name), 'runs'];
    const rows = contenders.map((c, ci) => [
      c.name,
      ...POSITIONS.map((_, pi) => `d${c.depths[pi]} ${fmtRate(med[ci][pi])}`),
      POSITIONS.map((p, pi) => `${p.name} ${rates[ci][pi].map(fmtRate).join(' ')}`).join('; '),
    ]);
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    for (const r of [head, ...rows])
      console.log('  ' + r.map((x, i) => (i === 0 ? x.padEnd(widths[i]) : i === r.length - 1 ? x : x.padStart(widths[i]))).join('  '));
    // Overall ratio: geometric mean of the per-position ratios (contenders may run different depths).
    for (let ci = 1; ci < contenders.length; ci++) {
      const ratios = POSITIONS.map((_, pi) => med[0][pi] / med[ci][pi]);
      const geo = Math.exp(ratios.reduce((s, x) => s + Math.log(x), 0) / ratios.length);
      const per = POSITIONS.map((p, pi) => `${p.name} ${Number.isFinite(ratios[pi]) ? ratios[pi].toFixed(2) : '-'}`).join(', ');
      console.log(`  ours / ${contenders[ci].name}: ${Number.isFinite(geo) ? geo.toFixed(2) : '-'} (${per})`);
    }
  }
}

await runScript('perft-bench', main);
