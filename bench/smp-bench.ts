/**
 * Lazy SMP: time to depth on the bench positions (src/engine/bench.ts), N threads against one.
 * Each run searches every position to the same depth (table cleared per position, as the bench
 * does) once with 1 thread and once with N, interleaved; the figures are
 * medians of --runs runs. Time to depth is the honest Lazy SMP measure (its node counts are not
 * comparable: helpers search other depths). Everything shares the machine's cores with whatever
 * else runs, so the bench first measures what the machine gives: the summed node rate of N
 * independent one-thread searches in N threads against one such search alone (N on an idle
 * N-core machine, ~1 when only one core is really free). Read the speed-up against that.
 *
 *   node dist/bench/smp-bench.js [--threads 2] [--depth 11] [--runs 3] [--hash 16]
 */
import { availableParallelism, loadavg } from 'node:os';
import { Worker } from 'node:worker_threads';
import { Position } from '../src/core/position.js';
import { Engine, BENCH_FENS, BENCH_DEPTH } from '../src/engine/index.js';
import { spawnNodeHelper } from '../src/engine/smp-node.js';
import { parseCommandArgs, parseIntIn } from '../src/cmdline/args.js';
import { runScript } from '../src/cmdline/errors.js';
import { median } from './median.js';

interface Pass {
  ms: number[]; // per position
  nodes: number;
  /** CPU seconds of the whole process (all threads) per wall-clock second: the cores it really got. */
  coresUsed: number;
}

/** One engine per thread count for the whole bench, so its helpers are as warm (JIT) as its main thread. */
function makeEngine(threads: number, hashMb: number): Engine {
  const engine = new Engine({ hashMb, threads, spawnHelper: spawnNodeHelper });
  if (!engine.waitForHelpers()) throw new Error(`smp-bench: the helper threads for Threads ${threads} did not start`);
  return engine;
}

function pass(engine: Engine, depth: number): Pass {
  const ms: number[] = [];
  let nodes = 0;
  const cpu0 = process.cpuUsage(),
    wall0 = performance.now();
  for (const fen of BENCH_FENS) {
    engine.newGame();
    const t0 = performance.now();
    nodes += engine.search(Position.fromFen(fen), { depth }).nodes;
    ms.push(performance.now() - t0);
  }
  const cpu = process.cpuUsage(cpu0);
  return { ms, nodes, coresUsed: (cpu.user + cpu.system) / 1000 / (performance.now() - wall0) };
}

/** Node rate of a one-thread bench search to `depth` run in a worker thread of its own. */
const RATE_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
Promise.all([import(workerData.engine), import(workerData.position)]).then(([{ Engine, BENCH_FENS }, { Position }]) => {
  const engine = new Engine({ hashMb: 16 });
  engine.search(Position.fromFen(BENCH_FENS[4]), { depth: 6 }); // warm-up
  const t0 = performance.now();
  let nodes = 0;
  for (const fen of BENCH_FENS) {
    engine.newGame();
    nodes += engine.search(Position.fromFen(fen), { depth: workerData.depth }).nodes;
  }
  parentPort.postMessage((nodes * 1000) / (performance.now() - t0));
});`;

/** Summed node rate of `k` independent one-thread searches running at once. */
async function parallelRate(k: number, depth: number): Promise<number> {
  const workerData = {
    engine: new URL('../src/engine/index.js', import.meta.url).href,
    position: new URL('../src/core/position.js', import.meta.url).href,
    depth,
  };
  const workers = Array.from({ length: k }, () => new Worker(RATE_WORKER, { eval: true, workerData }));
  try {
    const rates = await Promise.all(workers.map((w) => new Promise<number>((ok, fail) => w.once('message', ok).once('error', fail))));
    return sum(rates);
  } finally {
    for (const w of workers) void w.terminate();
  }
}

const sum = (xs: number[]): number => xs.reduce((s, x) => s + x, 0);

async function main(): Promise<void> {
  const { values } = parseCommandArgs(
    'smp-bench',
    process.argv.slice(2),
    { threads: { type: 'string' }, depth: { type: 'string' }, runs: { type: 'string' }, hash: { type: 'string' } },
    0,
  );
  const threads = values.threads === undefined ? 2 : parseIntIn('--threads', values.threads as string, 2, availableParallelism());
  const depth = values.depth === undefined ? BENCH_DEPTH : parseIntIn('--depth', values.depth as string, 1, 60);
  const runs = values.runs === undefined ? 3 : parseIntIn('--runs', values.runs as string, 1, 100);
  const hashMb = values.hash === undefined ? 16 : parseIntIn('--hash', values.hash as string, 1, 1024);
  console.log(
    `smp-bench: ${BENCH_FENS.length} bench positions to depth ${depth}, hash ${hashMb} MB, Threads 1 vs ${threads}, ${runs} runs (load ${loadavg()[0].toFixed(2)} on ${availableParallelism()} cores)`,
  );
  const capacityDepth = Math.max(1, depth - 2);
  const alone = await parallelRate(1, capacityDepth),
    together = await parallelRate(threads, capacityDepth);
  console.log(
    `Machine: ${threads} independent one-thread searches together run ${(together / alone).toFixed(2)}x the node rate of one alone (depth ${capacityDepth}); that is the best speed-up to hope for now`,
  );
  const engines: Record<number, Engine> = { 1: makeEngine(1, hashMb), [threads]: makeEngine(threads, hashMb) };
  // A cold search runs partly unoptimised, in every thread: warm up each engine, shallower, untimed.
  for (const t of [1, threads]) pass(engines[t], Math.max(1, depth - 2));
  const results: Record<number, Pass[]> = { 1: [], [threads]: [] };
  for (let r = 0; r < runs; r++) {
    for (const t of [1, threads]) {
      const p = pass(engines[t], depth);
      results[t].push(p);
      console.log(
        `  run ${r + 1} Threads ${t}: ${(sum(p.ms) / 1000).toFixed(2)} s, ${p.nodes} nodes, ${p.coresUsed.toFixed(2)} cores used`,
      );
    }
  }
  const total = (t: number): number => median(results[t].map((p) => sum(p.ms)));
  const nodes = (t: number): number => median(results[t].map((p) => p.nodes));
  for (const t of [1, threads]) {
    const ms = total(t);
    console.log(
      `Threads ${t}: time to depth ${(ms / 1000).toFixed(2)} s (median), ${nodes(t)} nodes, ${Math.round((nodes(t) * 1000) / ms)} nodes/s, ${median(results[t].map((p) => p.coresUsed)).toFixed(2)} cores used`,
    );
  }
  // Per position: median time with 1 thread over median time with N, then their geometric mean.
  const ratios = BENCH_FENS.map((_, i) => median(results[1].map((p) => p.ms[i])) / median(results[threads].map((p) => p.ms[i])));
  const geo = Math.exp(sum(ratios.map(Math.log)) / ratios.length);
  console.log(
    `Speed-up (time to depth, Threads 1 / Threads ${threads}): total ${(total(1) / total(threads)).toFixed(2)}, geometric mean per position ${geo.toFixed(2)}`,
  );
  for (const e of Object.values(engines)) e.dispose();
  console.log(
    `Load average now: ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
}

await runScript('smp-bench', main);
