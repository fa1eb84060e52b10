/**
 * A training thread of gradients.ts: for each step, computes its slice's gradient into its
 * own buffers, then sums and updates its range of every weight array. Everything it reads and
 * writes lives on shared memory.
 */
import { workerData } from 'node:worker_threads';
import {
  CTRL_DONE,
  CTRL_DONE2,
  CTRL_FAILED,
  CTRL_FROM,
  CTRL_GEN,
  CTRL_GEN2,
  CTRL_READY,
  CTRL_STOP,
  CTRL_T,
  CTRL_TO,
  PARAM_LR,
  PARAM_SCALE,
  sliceRange,
  updateRanges,
  zeroWeights,
  type SliceWorkerData,
} from './gradients.js';
import { createPass } from './pass-wasm.js';

const { slice, slices, labels, rule, kernel, net, parts, grads, moments, set, idx, control, params, losses } =
  workerData as SliceWorkerData;
const pass = createPass(net, kernel);

let seen = Atomics.load(control, CTRL_GEN),
  seen2 = Atomics.load(control, CTRL_GEN2);
Atomics.add(control, CTRL_READY, 1);
Atomics.notify(control, CTRL_READY);
try {
  for (;;) {
    Atomics.wait(control, CTRL_GEN, seen);
    seen = Atomics.load(control, CTRL_GEN);
    if (Atomics.load(control, CTRL_STOP) !== 0) break;
    const [a, b] = sliceRange(Atomics.load(control, CTRL_FROM), Atomics.load(control, CTRL_TO), slice, slices);
    zeroWeights(parts[slice]);
    losses[slice] = pass.run(set, idx, a, b, labels, parts[slice]);
    Atomics.add(control, CTRL_DONE, 1);
    Atomics.notify(control, CTRL_DONE);
    Atomics.wait(control, CTRL_GEN2, seen2);
    seen2 = Atomics.load(control, CTRL_GEN2);
    updateRanges(net, grads, parts, moments, rule, slice, slices, params[PARAM_LR], params[PARAM_SCALE], Atomics.load(control, CTRL_T));
    Atomics.add(control, CTRL_DONE2, 1);
    Atomics.notify(control, CTRL_DONE2);
  }
} catch (e) {
  process.stderr.write(`tune nnue: training thread ${slice}: ${(e as Error).stack ?? String(e)}\n`);
  Atomics.store(control, CTRL_FAILED, 1);
  Atomics.notify(control, CTRL_DONE);
  Atomics.notify(control, CTRL_DONE2);
  Atomics.notify(control, CTRL_READY);
}
