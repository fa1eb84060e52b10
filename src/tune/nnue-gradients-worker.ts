/**
 * A training thread of nnue-gradients.ts: waits for a batch, computes its slice's gradient into
 * its own shared buffers, says it is done. Everything it reads lives on shared memory.
 */
import { workerData } from 'node:worker_threads';
import {
  CTRL_DONE,
  CTRL_FAILED,
  CTRL_FROM,
  CTRL_GEN,
  CTRL_READY,
  CTRL_STOP,
  CTRL_TO,
  sliceRange,
  type SliceWorkerData,
} from './nnue-gradients.js';
import { Pass } from './nnue-pass.js';

const { slice, slices, resultWeight, net, grads, set, idx, control, losses } = workerData as SliceWorkerData;
const pass = new Pass(net);
const parts = [grads.w1, grads.b1, grads.w2, grads.b2, grads.psqt];

let seen = Atomics.load(control, CTRL_GEN);
Atomics.add(control, CTRL_READY, 1);
Atomics.notify(control, CTRL_READY);
try {
  for (;;) {
    Atomics.wait(control, CTRL_GEN, seen);
    seen = Atomics.load(control, CTRL_GEN);
    if (Atomics.load(control, CTRL_STOP) !== 0) break;
    const [a, b] = sliceRange(Atomics.load(control, CTRL_FROM), Atomics.load(control, CTRL_TO), slice, slices);
    for (const p of parts) p.fill(0);
    losses[slice] = pass.run(set, idx, a, b, resultWeight, grads);
    Atomics.add(control, CTRL_DONE, 1);
    Atomics.notify(control, CTRL_DONE);
  }
} catch (e) {
  process.stderr.write(`tune nnue: training thread ${slice}: ${(e as Error).stack ?? String(e)}\n`);
  Atomics.store(control, CTRL_FAILED, 1);
  Atomics.notify(control, CTRL_DONE);
  Atomics.notify(control, CTRL_READY);
}
