/**
 * `bnn bench`, the seed author's method: N occupancies, each the AND of two random 64-bit
 * numbers, 12 random squares each, queen attacks (rook | bishop) on every one. Inputs are made
 * in chunks before timing; only the attack computation is timed. Every implementation sums the
 * attack halves into a checksum, printed (and compared) so nothing can be optimised away.
 *
 * Each layout is measured on one thread and on all cores (one worker_thread per core, each on
 * its own share of the same chunk stream, inputs made before the common start: total queens /
 * wall time), with the classical magic attacks measured the same way beside it. The checksum
 * is a sum, so every figure over the same N occupancies has the same checksum when exact.
 */
import { WorkerPool } from '../node/worker-pool.js';
import type { SliderAttacks } from '../core/slider-attacks.js';
import { magicAttacks } from '../core/magic.js';
import { Sfc32 } from '../core/rng.js';
import { referenceSliders } from './infer.js';
import { loadWasmKernel, type WasmKernel } from './wasm-kernel.js';
import type { WeightsFile } from './weights.js';
import { WASM_FILE } from './paths.js';

export const SQUARES_PER_OCCUPANCY = 12;
const CHUNK = 1 << 15;

export interface BenchResult {
  name: string;
  queens: number;
  seconds: number;
  mqps: number;
  /** Rate per second of process CPU time: robust when the shared machine is overloaded. */
  cpuMqps: number;
  checksum: string;
}

/** Fills occupancies (lo, hi pairs) and squares for chunk `index` of a seeded stream. */
export function makeChunk(seed: number, index: number, occ: Int32Array, squares: Uint8Array): void {
  const rng = new Sfc32((seed ^ Math.imul(index + 1, 0x9e3779b9)) >>> 0);
  for (let i = 0; i < occ.length; i++) occ[i] = rng.next() & rng.next();
  for (let i = 0; i < squares.length; i++) squares[i] = rng.next() & 63;
}

function cpuSeconds(since: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1e6;
}

const hex = (x: number): string => (x >>> 0).toString(16).padStart(8, '0');

/** Queens per second of a SliderAttacks provider (a JS call per lookup). */
export function benchSliders(s: SliderAttacks, count: number, seed: number): BenchResult {
  const occ = new Int32Array(2 * CHUNK),
    squares = new Uint8Array(SQUARES_PER_OCCUPANCY * CHUNK);
  const sums = new Int32Array(2);
  let seconds = 0,
    cpu = 0;
  for (let done = 0, chunk = 0; done < count; chunk++) {
    const n = Math.min(CHUNK, count - done);
    makeChunk(seed, chunk, occ, squares);
    const t0 = performance.now(),
      c0 = process.cpuUsage();
    sumQueens(s, occ, squares, n, sums);
    seconds += (performance.now() - t0) / 1000;
    cpu += cpuSeconds(c0);
    done += n;
  }
  const queens = count * SQUARES_PER_OCCUPANCY;
  return {
    name: s.name,
    queens,
    seconds,
    mqps: queens / seconds / 1e6,
    cpuMqps: queens / cpu / 1e6,
    checksum: hex(sums[1]) + hex(sums[0]),
  };
}

/** Adds the queen attacks of `n` occupancies x 12 squares to sums (lo, hi halves, each mod 2^32). */
export function sumQueens(s: SliderAttacks, occ: Int32Array, squares: Uint8Array, n: number, sums: Int32Array): void {
  const out = new Int32Array(2);
  let sumLo = sums[0],
    sumHi = sums[1];
  for (let i = 0, k = 0; i < n; i++) {
    const lo = occ[2 * i],
      hi = occ[2 * i + 1];
    for (let j = 0; j < SQUARES_PER_OCCUPANCY; j++, k++) {
      const sq = squares[k];
      s.rook(sq, lo, hi, out);
      let aLo = out[0],
        aHi = out[1];
      s.bishop(sq, lo, hi, out);
      aLo |= out[0];
      aHi |= out[1];
      sumLo = (sumLo + aLo) | 0;
      sumHi = (sumHi + aHi) | 0;
    }
  }
  sums[0] = sumLo;
  sums[1] = sumHi;
}

/** Queens per second of the WASM kernel's batch entry point (one call per chunk). */
export function benchWasmBatch(k: WasmKernel, count: number, seed: number): BenchResult {
  const ex = k.exports;
  const occPtr = ex.alloc(8 * CHUNK),
    sqPtr = ex.alloc(SQUARES_PER_OCCUPANCY * CHUNK);
  const occ = new Int32Array(2 * CHUNK),
    squares = new Uint8Array(SQUARES_PER_OCCUPANCY * CHUNK);
  let sumLo = 0,
    sumHi = 0,
    seconds = 0,
    cpu = 0;
  for (let done = 0, chunk = 0; done < count; chunk++) {
    const n = Math.min(CHUNK, count - done);
    makeChunk(seed, chunk, occ, squares);
    const heap = k.heapU8();
    heap.set(new Uint8Array(occ.buffer), occPtr);
    heap.set(squares, sqPtr);
    const t0 = performance.now(),
      c0 = process.cpuUsage();
    k.queenBatch(occPtr, sqPtr, n, SQUARES_PER_OCCUPANCY);
    seconds += (performance.now() - t0) / 1000;
    cpu += cpuSeconds(c0);
    const res = new Int32Array(ex.memory.buffer, ex.outPtr(), 2);
    sumLo = (sumLo + res[0]) | 0;
    sumHi = (sumHi + res[1]) | 0;
    done += n;
  }
  const queens = count * SQUARES_PER_OCCUPANCY;
  return {
    name: `${k.sliders.name} (batch)`,
    queens,
    seconds,
    mqps: queens / seconds / 1e6,
    cpuMqps: queens / cpu / 1e6,
    checksum: hex(sumHi) + hex(sumLo),
  };
}

/** What one all-cores bench thread runs: its share (chunks index, index + threads, ...) of the stream. */
export interface ThreadJob {
  engine: 'wasm' | 'magic';
  /** The weights (engine 'wasm'). */
  weights?: WeightsFile;
  wasmFile: string;
  count: number;
  seed: number;
  index: number;
  threads: number;
}

/** Result of one thread: its queens and checksum halves. */
export interface ThreadResult {
  queens: number;
  sumLo: number;
  sumHi: number;
}

/** What a bench thread is asked: make its inputs and warm up, then (all together) the timed run. */
export type BenchThreadStep = 'prepare' | 'go';

/**
 * Makes a thread's inputs (all of its chunks, before timing) and warms the code up; returns the
 * timed run. Called inside the bench worker.
 */
export function prepareThreadRun(job: ThreadJob): () => ThreadResult {
  const chunks: number[] = [];
  for (let c = job.index; c * CHUNK < job.count; c += job.threads) chunks.push(c);
  const sizes = chunks.map((c) => Math.min(CHUNK, job.count - c * CHUNK));
  const total = sizes.reduce((a, b) => a + b, 0);
  const occ = new Int32Array(2 * total),
    squares = new Uint8Array(SQUARES_PER_OCCUPANCY * total);
  const chunkOcc = new Int32Array(2 * CHUNK),
    chunkSquares = new Uint8Array(SQUARES_PER_OCCUPANCY * CHUNK);
  for (let i = 0, at = 0; i < chunks.length; at += sizes[i], i++) {
    makeChunk(job.seed, chunks[i], chunkOcc, chunkSquares);
    occ.set(chunkOcc.subarray(0, 2 * sizes[i]), 2 * at);
    squares.set(chunkSquares.subarray(0, SQUARES_PER_OCCUPANCY * sizes[i]), SQUARES_PER_OCCUPANCY * at);
  }
  const warm = Math.min(20000, Math.max(1, Math.floor(job.count / 20)));
  if (job.engine === 'magic') {
    benchSliders(magicAttacks, warm, job.seed + 1);
    return () => {
      const sums = new Int32Array(2);
      for (let i = 0, at = 0; i < chunks.length; at += sizes[i], i++) {
        sumQueens(magicAttacks, occ.subarray(2 * at), squares.subarray(SQUARES_PER_OCCUPANCY * at), sizes[i], sums);
      }
      return { queens: total * SQUARES_PER_OCCUPANCY, sumLo: sums[0], sumHi: sums[1] };
    };
  }
  const k = loadWasmKernel(job.weights!, job.wasmFile);
  if (!k) throw new Error(`WebAssembly kernel ${job.wasmFile} not found`);
  benchWasmBatch(k, warm, job.seed + 1);
  const occPtr = k.exports.alloc(Math.max(8, 8 * total)),
    sqPtr = k.exports.alloc(Math.max(1, SQUARES_PER_OCCUPANCY * total));
  const heap = k.heapU8();
  heap.set(new Uint8Array(occ.buffer), occPtr);
  heap.set(squares, sqPtr);
  return () => {
    const res = new Int32Array(k.exports.memory.buffer, k.exports.outPtr(), 2);
    let sumLo = 0,
      sumHi = 0;
    for (let i = 0, at = 0; i < chunks.length; at += sizes[i], i++) {
      k.queenBatch(occPtr + 8 * at, sqPtr + SQUARES_PER_OCCUPANCY * at, sizes[i], SQUARES_PER_OCCUPANCY);
      sumLo = (sumLo + res[0]) | 0;
      sumHi = (sumHi + res[1]) | 0;
    }
    return { queens: total * SQUARES_PER_OCCUPANCY, sumLo, sumHi };
  };
}

/**
 * All cores: `threads` workers each prepare their share, then start together; the rate is the
 * total queens over the wall time from the start signal to the last result.
 */
export async function benchThreads(name: string, job: Omit<ThreadJob, 'index' | 'threads'>, threads: number): Promise<BenchResult> {
  const pool = new WorkerPool<BenchThreadStep, ThreadResult | null>(new URL('./bench-worker.js', import.meta.url), {
    threads,
    workerData: (index) => ({ ...job, index, threads }) satisfies ThreadJob,
  });
  try {
    await pool.runOnEach('prepare');
    const t0 = performance.now();
    const results = (await pool.runOnEach('go')) as ThreadResult[];
    const seconds = (performance.now() - t0) / 1000;
    let queens = 0,
      sumLo = 0,
      sumHi = 0;
    for (const r of results) {
      queens += r.queens;
      sumLo = (sumLo + r.sumLo) | 0;
      sumHi = (sumHi + r.sumHi) | 0;
    }
    const mqps = queens / seconds / 1e6;
    return { name: `${name} x${threads} threads`, queens, seconds, mqps, cpuMqps: NaN, checksum: hex(sumHi) + hex(sumLo) };
  } finally {
    await pool.close();
  }
}

function line(r: BenchResult, note = ''): string {
  const cpu = Number.isNaN(r.cpuMqps) ? ''.padStart(22) : `, ${r.cpuMqps.toFixed(2).padStart(8)} per CPU-s`;
  return `  ${r.name.padEnd(36)} ${r.mqps.toFixed(2).padStart(8)} M queens/s wall${cpu}  (${r.queens} queens, ${r.seconds.toFixed(3)} s, checksum ${r.checksum})${note}`;
}

/** A weights file to bench, and where it came from (for the report). */
export interface BenchSubject {
  file: string;
  w: WeightsFile;
}

/**
 * The CLI benchmark, layout by layout: WASM batch and classical on one thread and on `threads`
 * cores, the per-call WASM path on a tenth of the count and the TS reference on a hundredth
 * (it is ~100x slower), each checksum compared with the classical attacks on the same inputs.
 * Returns 1 when a checksum differs (the networks are not exact, or a kernel is wrong).
 */
export async function runBench(
  subjects: BenchSubject[],
  count: number,
  seed: number,
  threads: number,
  wasmFile = WASM_FILE,
  skipped: string[] = [],
): Promise<number> {
  console.log(
    `bnn bench: ${count} occupancies x ${SQUARES_PER_OCCUPANCY} squares, queen = rook | bishop, seed ${seed}, all cores = ${threads} threads`,
  );
  let status = 0;
  for (const { file, w } of subjects) {
    console.log(`${w.layout.name}: ${file} (seed ${w.seed})`);
    const kernel = loadWasmKernel(w, wasmFile);
    // Warm-up runs (JIT, caches), not reported.
    const warm = Math.max(1, Math.min(20000, Math.floor(count / 20)));
    if (kernel) {
      benchWasmBatch(kernel, warm, seed + 1);
      benchSliders(kernel.sliders, warm, seed + 1);
    }
    benchSliders(magicAttacks, warm, seed + 1);
    const mismatches: string[] = [];
    const compare = (a: BenchResult, b: BenchResult): void => {
      if (a.checksum !== b.checksum) mismatches.push(`${a.name} ${a.checksum} != ${b.name} ${b.checksum}`);
    };
    if (kernel) {
      const batch = benchWasmBatch(kernel, count, seed);
      console.log(line(batch));
      const batchAll = await benchThreads(batch.name, { engine: 'wasm', weights: w, wasmFile, count, seed }, threads);
      console.log(line(batchAll));
      const classical = benchSliders(magicAttacks, count, seed);
      console.log(line(classical));
      const classicalAll = await benchThreads('magic', { engine: 'magic', wasmFile, count, seed }, threads);
      console.log(line(classicalAll));
      const tenth = Math.max(1, Math.floor(count / 10));
      const perCall = benchSliders(kernel.sliders, tenth, seed);
      console.log(line({ ...perCall, name: perCall.name + ' (per call)' }, ' [count/10]'));
      console.log(
        `  ratio WASM batch / classical: one thread ${(batch.mqps / classical.mqps).toFixed(3)} wall (${(batch.cpuMqps / classical.cpuMqps).toFixed(3)} CPU), all cores ${(batchAll.mqps / classicalAll.mqps).toFixed(3)} wall`,
      );
      compare(batch, classical);
      compare(batchAll, classical);
      compare(classicalAll, classical);
      compare(perCall, benchSliders(magicAttacks, tenth, seed));
    } else {
      console.log(`  WebAssembly kernel ${wasmFile} not built (npm run build:wasm): skipped`);
    }
    const hundredth = Math.max(1, Math.floor(count / 100));
    const ts = benchSliders(referenceSliders(w.layout, w.weights), hundredth, seed);
    console.log(line(ts, ' [count/100]'));
    const classicalSmall = benchSliders(magicAttacks, hundredth, seed);
    compare(ts, classicalSmall);
    if (mismatches.length === 0) {
      console.log(`  checksums: every figure equals the classical attacks'`);
      continue;
    }
    status = 1;
    // Distinguish networks that are not exact (kernel and reference agree with each other) from a wrong kernel.
    const agree = kernel && benchWasmBatch(kernel, hundredth, seed).checksum === ts.checksum;
    console.log(
      `  checksums: MISMATCH with the classical attacks (${mismatches.length}): ` +
        (agree
          ? 'the WASM kernel agrees with the TypeScript reference, so these networks are not exact attack networks (speed figures only)'
          : 'the WASM kernel disagrees with the TypeScript reference'),
    );
    for (const m of mismatches) console.error(`bnn bench ${w.layout.name}: checksum mismatch: ${m}`);
  }
  for (const s of skipped) console.log(s);
  return status;
}
