/**
 * Worker thread of the trainer: trains the networks it is sent, returns their weights.
 * Each network's result depends only on (seed, layout, piece, square, target), so which worker
 * trains it does not matter.
 */
import { serveTasks } from '../node/worker-pool.js';
import { trainBatch, type BatchRequest, type BatchResult } from './trainer-batch.js';

serveTasks<BatchRequest, BatchResult>(trainBatch, (result) => [
  result.weights.buffer as ArrayBuffer,
  result.thresholds.buffer as ArrayBuffer,
]);
