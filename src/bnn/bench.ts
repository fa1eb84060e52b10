/**
 * `bnn bench`, the seed author's method: N occupancies, each the AND of two random 64-bit
 * numbers, 12 random squares each, queen attacks (rook | bishop) on every one. Inputs are made
 * in chunks before timing; only the attack computation is timed. Every implementation sums the
 * attack halves into a checksum, printed (and compared) so nothing can be optimised away.
 */
import type { SliderAttacks } from '../core/slider-attacks.js';
import { magicAttacks } from '../core/magic.js';
import { Sfc32 } from '../core/rng.js';
import { referenceSliders } from './infer.js';
import { loadWasmKernel, type WasmKernel } from './wasm-kernel.js';
import type { WeightsFile } from './weights.js';

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
function makeChunk(seed: number, index: number, occ: Int32Array, squares: Uint8Array): void {
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
  const out = new Int32Array(2);
  let sumLo = 0,
    sumHi = 0,
    seconds = 0,
    cpu = 0;
  for (let done = 0, chunk = 0; done < count; chunk++) {
    const n = Math.min(CHUNK, count - done);
    makeChunk(seed, chunk, occ, squares);
    const t0 = performance.now(),
      c0 = process.cpuUsage();
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
    seconds += (performance.now() - t0) / 1000;
    cpu += cpuSeconds(c0);
    done += n;
  }
  const queens = count * SQUARES_PER_OCCUPANCY;
  return { name: s.name, queens, seconds, mqps: queens / seconds / 1e6, cpuMqps: queens / cpu / 1e6, checksum: hex(sumHi) + hex(sumLo) };
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
    ex.queenBatch(occPtr, sqPtr, n, SQUARES_PER_OCCUPANCY);
    seconds += (performance.now() - t0) / 1000;
    cpu += cpuSeconds(c0);
    const res = new Int32Array(ex.memory.buffer, ex.outPtr(), 2);
    sumLo = (sumLo + res[0]) | 0;
    sumHi = (sumHi + res[1]) | 0;
    done += n;
  }
  const queens = count * SQUARES_PER_OCCUPANCY;
  return {
    name: `bnn-wasm-${k.sliders.name.replace('bnn-wasm-', '')} (batch)`,
    queens,
    seconds,
    mqps: queens / seconds / 1e6,
    cpuMqps: queens / cpu / 1e6,
    checksum: hex(sumHi) + hex(sumLo),
  };
}

function line(r: BenchResult): string {
  return `${r.name.padEnd(28)} ${r.mqps.toFixed(2).padStart(8)} M queens/s wall, ${r.cpuMqps.toFixed(2).padStart(8)} per CPU-s  (${r.queens} queens, ${r.seconds.toFixed(3)} s, checksum ${r.checksum})`;
}

/** The CLI benchmark; the per-call WASM path runs a tenth of the count, the TS reference a hundredth (it is ~100x slower). */
export async function runBench(w: WeightsFile, count: number, seed: number): Promise<number> {
  const kernel = loadWasmKernel(w);
  console.log(
    `bnn bench: ${count} occupancies x ${SQUARES_PER_OCCUPANCY} squares, queen = rook | bishop, layout ${w.layout.name}, seed ${seed}`,
  );
  let status = 0;
  // Warm-up runs (JIT, caches), not reported.
  const warm = Math.max(1, Math.min(20000, Math.floor(count / 20)));
  if (kernel) {
    benchWasmBatch(kernel, warm, seed + 1);
    benchSliders(kernel.sliders, warm, seed + 1);
  }
  benchSliders(magicAttacks, warm, seed + 1);
  if (kernel) {
    const batch = benchWasmBatch(kernel, count, seed);
    console.log(line(batch));
    const classical = benchSliders(magicAttacks, count, seed);
    console.log(line(classical));
    if (classical.checksum !== batch.checksum) {
      console.error('checksum mismatch between WASM kernel and classical attacks');
      status = 1;
    }
    const perCall = benchSliders(kernel.sliders, Math.max(1, Math.floor(count / 10)), seed);
    console.log(line({ ...perCall, name: perCall.name + ' (per call)' }) + ' [count/10]');
    console.log(
      `ratio WASM batch / classical: ${(batch.mqps / classical.mqps).toFixed(3)} wall, ${(batch.cpuMqps / classical.cpuMqps).toFixed(3)} CPU`,
    );
  } else {
    console.log('WebAssembly kernel not built (npm run build:wasm): skipped');
  }
  const tsCount = Math.max(1, Math.floor(count / 100));
  const ts = benchSliders(referenceSliders(w.layout, w.weights), tsCount, seed);
  console.log(line(ts) + ' [count/100]');
  const classicalSmall = benchSliders(magicAttacks, tsCount, seed);
  if (classicalSmall.checksum !== ts.checksum) {
    console.error('checksum mismatch between TS reference and classical attacks');
    status = 1;
  }
  return status;
}
