/** A batch of networks to train: the unit of work the trainer hands to a thread. */
import { NetworkTrainer } from './train-core.js';
import { layoutById } from './network.js';

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
  moves: number;
  restarts: number;
  /** Triples of networks that did not reach zero error. */
  failed: number[];
}

let trainer: NetworkTrainer | undefined;

export function trainBatch(req: BatchRequest): BatchResult {
  const layout = layoutById(req.layoutId);
  if (!layout) throw new Error(`unknown layout id ${req.layoutId}`);
  trainer ??= new NetworkTrainer();
  const n = req.items.length / 3;
  const weights = new Uint8Array(n * layout.neurons);
  const result: BatchResult = { id: req.id, weights, moves: 0, restarts: 0, failed: [] };
  for (let k = 0; k < n; k++) {
    const p = req.items[3 * k],
      sq = req.items[3 * k + 1],
      t = req.items[3 * k + 2];
    const s = trainer.train(layout, p, sq, t, req.seed, weights, k * layout.neurons, req.maxRestarts);
    result.moves += s.moves;
    result.restarts += s.restarts;
    if (!s.solved) result.failed.push(p, sq, t);
  }
  return result;
}
