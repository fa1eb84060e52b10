/** A batch of networks to train: the unit of work the trainer hands to a thread. */
import { NetworkTrainer, networkSeed, type TrainStats } from './train-core.js';
import { layoutById } from './network.js';
import { OwnByteSolver, ownByteProblem } from './own-byte-network.js';
import { Sfc32 } from '../core/rng.js';

export interface BatchRequest {
  id: number;
  layoutId: number;
  seed: number;
  /** Triples (piece, square, target). */
  items: Int32Array;
  maxRestarts: number;
}

export interface BatchResult {
  id: number;
  /** items.length / 3 networks, `neurons` bytes each, in request order. */
  weights: Uint8Array;
  /** Layouts with thresholds: one T per network, in request order; else empty. */
  thresholds: Uint8Array;
  moves: number;
  restarts: number;
  /** Triples of networks that did not reach zero error. */
  failed: number[];
}

let trainer: NetworkTrainer | undefined;
let ownByteSolver: OwnByteSolver | undefined;

export function trainBatch(req: BatchRequest): BatchResult {
  const layout = layoutById(req.layoutId);
  if (!layout) throw new Error(`unknown layout id ${req.layoutId}`);
  const n = req.items.length / 3;
  const weights = new Uint8Array(n * layout.neurons);
  const thresholds = new Uint8Array(layout.thresholds ? n : 0);
  const result: BatchResult = { id: req.id, weights, thresholds, moves: 0, restarts: 0, failed: [] };
  for (let k = 0; k < n; k++) {
    const p = req.items[3 * k],
      sq = req.items[3 * k + 1],
      t = req.items[3 * k + 2];
    let s: TrainStats;
    if (layout.thresholds) {
      // 16x8x1: all neurons on the target's own line byte, T derived from the trained weights.
      ownByteSolver ??= new OwnByteSolver();
      ownByteSolver.setProblem(ownByteProblem(p, sq, t));
      const rng = new Sfc32(networkSeed(req.seed, layout.id, p, sq, t));
      s = ownByteSolver.anneal(layout.neurons, rng, weights, k * layout.neurons, req.maxRestarts);
      const threshold = ownByteSolver.threshold(weights.subarray(k * layout.neurons), layout.neurons);
      if (threshold < 0) s.solved = false;
      else thresholds[k] = threshold;
    } else {
      trainer ??= new NetworkTrainer();
      s = trainer.train(layout, p, sq, t, req.seed, weights, k * layout.neurons, req.maxRestarts);
    }
    result.moves += s.moves;
    result.restarts += s.restarts;
    if (!s.solved) result.failed.push(p, sq, t);
  }
  return result;
}
