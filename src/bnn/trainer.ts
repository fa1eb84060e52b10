/**
 * The trainer: spreads the networks of a layout over worker threads and assembles the weights.
 * Networks go out in small batches, hardest first, so both cores stay busy to the end; results
 * land at fixed offsets, so the weights depend on the seed only.
 */
import { availableParallelism } from 'node:os';
import { WorkerPool } from '../node/worker-pool.js';
import { SQUARE_LAYOUTS } from './layout.js';
import { type NetworkLayout, networkOffset, thresholdOffset, weightBytes } from './network.js';
import { trainBatch, type BatchRequest, type BatchResult } from './trainer-batch.js';
import type { WeightsFile } from './weights.js';

export interface TrainOptions {
  layout: NetworkLayout;
  seed: number;
  /** 0 rook, 1 bishop. */
  pieces: number[];
  squares: number[];
  /** 0 trains in this thread. */
  workers: number;
  maxRestarts?: number;
  onProgress?: (done: number, total: number) => void;
}

export interface TrainReport {
  file: WeightsFile;
  networks: number;
  moves: number;
  restarts: number;
  failed: Array<[number, number, number]>;
  seconds: number;
}

const BATCH = 24;

export async function train(opts: TrainOptions): Promise<TrainReport> {
  const started = performance.now();
  const { layout } = opts;
  const items: number[][] = [];
  for (const p of opts.pieces) {
    for (const sq of opts.squares) {
      const targets = SQUARE_LAYOUTS[p][sq].targets;
      for (let t = 0; t < targets.length; t++) items.push([p, sq, t, difficulty(layout, p, sq, t)]);
    }
  }
  // Hardest first: the long tail then runs while the other thread still has easy work.
  items.sort((a, b) => b[3] - a[3] || a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
  const batches: BatchRequest[] = [];
  for (let i = 0; i < items.length; i += BATCH) {
    const chunk = items.slice(i, i + BATCH);
    batches.push({
      id: batches.length,
      layoutId: layout.id,
      seed: opts.seed,
      maxRestarts: opts.maxRestarts ?? 100000,
      items: Int32Array.from(chunk.flatMap((x) => x.slice(0, 3))),
    });
  }
  const weights = new Uint8Array(weightBytes(layout));
  const report: TrainReport = {
    file: { layout, seed: opts.seed, pieces: 0, squaresLo: 0, squaresHi: 0, weights },
    networks: items.length,
    moves: 0,
    restarts: 0,
    failed: [],
    seconds: 0,
  };
  let done = 0;
  const accept = (req: BatchRequest, res: BatchResult): void => {
    for (let k = 0; k < req.items.length / 3; k++) {
      const p = req.items[3 * k],
        sq = req.items[3 * k + 1],
        t = req.items[3 * k + 2];
      weights.set(res.weights.subarray(k * layout.neurons, (k + 1) * layout.neurons), networkOffset(layout, p, sq, t));
      if (layout.thresholds) weights[thresholdOffset(layout, p, sq, t)] = res.thresholds[k];
    }
    report.moves += res.moves;
    report.restarts += res.restarts;
    for (let i = 0; i < res.failed.length; i += 3) report.failed.push([res.failed[i], res.failed[i + 1], res.failed[i + 2]]);
    done += req.items.length / 3;
    opts.onProgress?.(done, items.length);
  };

  if (opts.workers <= 0) {
    for (const b of batches) accept(b, trainBatch(b));
  } else {
    await runOnWorkers(batches, Math.min(opts.workers, batches.length), accept);
  }

  // Coverage recorded in the header: which pieces x squares hold trained networks.
  let pieces = 0,
    sqLo = 0,
    sqHi = 0;
  for (const p of opts.pieces) pieces |= 1 << p;
  for (const sq of opts.squares) {
    if (sq < 32) sqLo |= 1 << sq;
    else sqHi |= 1 << (sq - 32);
  }
  report.file.pieces = pieces;
  report.file.squaresLo = sqLo;
  report.file.squaresHi = sqHi;
  report.seconds = (performance.now() - started) / 1000;
  return report;
}

async function runOnWorkers(batches: BatchRequest[], count: number, accept: (req: BatchRequest, res: BatchResult) => void): Promise<void> {
  const pool = new WorkerPool<BatchRequest, BatchResult>(new URL('./train-worker.js', import.meta.url), { threads: count });
  try {
    await Promise.all(batches.map((b) => pool.run(b).then((res) => accept(b, res))));
  } finally {
    await pool.close();
  }
}

/** Rough cost estimate used only to order the work: samples times between-bytes. */
function difficulty(layout: NetworkLayout, piece: number, sq: number, t: number): number {
  const lay = SQUARE_LAYOUTS[piece][sq];
  const tg = lay.targets[t];
  let bytes = 0;
  for (let g = 0; g < 8; g++) {
    const b = g < 4 ? (tg.betweenLo >>> (8 * g)) & 0xff : (tg.betweenHi >>> (8 * (g - 4))) & 0xff;
    if (b) bytes++;
  }
  let bits = 0;
  for (let m = lay.inputMask; m; m &= m - 1) bits++;
  return (layout.groups === 8 ? bytes * 16 : 0) + bits;
}

export function defaultWorkers(): number {
  return Math.max(1, Math.min(2, availableParallelism()));
}
