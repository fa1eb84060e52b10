/**
 * Worker thread of the trainer: trains the networks it is sent, returns their weights.
 * Each network's result depends only on (seed, layout, piece, square, target), so which worker
 * trains it does not matter.
 */
import { parentPort } from 'node:worker_threads';
import { trainBatch, type BatchRequest } from './trainer-batch.js';

if (!parentPort) throw new Error('train-worker.js must run as a worker thread');
const port = parentPort;
port.on('message', (req: BatchRequest) => {
  const result = trainBatch(req);
  port.postMessage(result, [result.weights.buffer as ArrayBuffer, result.thresholds.buffer as ArrayBuffer]);
});
