/**
 * One training step: the gradient of a batch and the Adam update of the weights. The batch is
 * split into `slices` contiguous parts whose gradients are summed in slice order; the sum and
 * the update are elementwise, so each thread then takes its own range of every weight array.
 * The same numbers come out whether the slices and ranges run one after another on this thread
 * or at once, one on this thread and the others on worker threads: a run is deterministic for a
 * given number of slices (`tune nnue --threads`), and one slice is exactly the single-threaded
 * trainer.
 *
 * The threads share memory: the training set, the shuffled index, the network's weights, the
 * optimizer's moments and the gradient buffers live on SharedArrayBuffers, and a control block
 * read and written with Atomics runs the two phases of a step (slices, then ranges). The trainer
 * stays synchronous, as the search does with its helper threads.
 */
import { WorkerPool } from '../../node/worker-pool.js';
import type { NnueSet } from './dataset.js';
import type { FloatNetwork, Labels, NnuePass, PassKernel } from './pass.js';
import { createPass, HELD_PARTS, WasmPass } from './pass-wasm.js';

/** Control block words (Int32) and step parameters (Float64). */
export const CTRL_GEN = 0,
  CTRL_FROM = 1,
  CTRL_TO = 2,
  CTRL_DONE = 3,
  CTRL_FAILED = 4,
  CTRL_STOP = 5,
  CTRL_READY = 6,
  CTRL_GEN2 = 7,
  CTRL_DONE2 = 8,
  CTRL_T = 9,
  CTRL_WORDS = 10;
export const PARAM_LR = 0,
  PARAM_SCALE = 1,
  PARAM_WORDS = 2;

export const PARTS = ['w1', 'b1', 'w2', 'b2', 'psqt'] as const;

/** Per weight array (in PARTS order): the clip bound and whether weight decay applies. */
export interface UpdateRule {
  clip: readonly number[];
  decayed: readonly boolean[];
  decay: number;
}

export interface BatchStep {
  /** Gradients of positions idx[from, to), then the update at learning rate lr, step t (from 1); returns the summed squared error. */
  run(from: number, to: number, lr: number, t: number): number;
  /** Adam's moments as the step keeps them (shared with the workers when threaded): a checkpoint reads and restores them in place. */
  readonly moments: Moments;
  close(): void;
}

/** Adam's first and second moments, one pair of arrays per weight array. */
export interface Moments {
  m: FloatNetwork;
  v: FloatNetwork;
}

/** What a worker needs to build its views of the shared memory. */
export interface SliceWorkerData {
  slice: number;
  slices: number;
  labels: Labels;
  rule: UpdateRule;
  kernel: PassKernel;
  net: FloatNetwork;
  /** Every slice's gradient buffers; the worker writes its own and reads all in its ranges. */
  parts: FloatNetwork[];
  grads: FloatNetwork;
  moments: Moments;
  set: NnueSet;
  idx: Uint32Array;
  control: Int32Array;
  params: Float64Array;
  losses: Float64Array;
}

/** Slice k of [from, to) when it is cut into n parts. */
export function sliceRange(from: number, to: number, k: number, n: number): [number, number] {
  const len = to - from;
  return [from + Math.floor((k * len) / n), from + Math.floor(((k + 1) * len) / n)];
}

/** Buffers shaped like `net`'s weights (on shared memory when `shared`). */
export function weightBuffers(net: FloatNetwork, shared: boolean): FloatNetwork {
  const f32 = (n: number): Float32Array => (shared ? new Float32Array(new SharedArrayBuffer(4 * n)) : new Float32Array(n));
  return {
    kind: net.kind,
    activation: net.activation,
    features: net.features,
    hidden: net.hidden,
    buckets: net.buckets,
    w1: f32(net.w1.length),
    b1: f32(net.b1.length),
    w2: f32(net.w2.length),
    b2: f32(net.b2.length),
    psqt: f32(net.psqt.length),
  };
}

export function zeroWeights(g: FloatNetwork): void {
  for (const k of PARTS) g[k].fill(0);
}

/** Adam's decay rates (the kernel's `adam` has the same). */
const ADAM_B1 = 0.9,
  ADAM_B2 = 0.999;

/** Adam's bias corrections at step t (from 1). */
function adamCorrections(t: number): { c1: number; c2: number } {
  return { c1: 1 - Math.pow(ADAM_B1, t), c2: 1 - Math.pow(ADAM_B2, t) };
}

/**
 * Range [lo, hi) of weight array `p`: the slices' gradients summed in slice order into `grads`
 * (nothing to sum with one slice, whose buffer is `grads`), then Adam with decoupled weight decay.
 */
export function updateRange(
  net: FloatNetwork,
  grads: FloatNetwork,
  parts: FloatNetwork[],
  moments: Moments,
  rule: UpdateRule,
  p: number,
  lo: number,
  hi: number,
  lr: number,
  scale: number,
  t: number,
): void {
  const k = PARTS[p],
    w = net[k],
    g = grads[k],
    m = moments.m[k],
    v = moments.v[k];
  if (parts.length > 1) {
    g.set(parts[0][k].subarray(lo, hi), lo);
    for (let s = 1; s < parts.length; s++) {
      const a = parts[s][k];
      for (let i = lo; i < hi; i++) g[i] += a[i];
    }
  }
  const clip = rule.clip[p],
    shrink = 1 - lr * (rule.decayed[p] ? rule.decay : 0);
  const b1 = ADAM_B1,
    b2 = ADAM_B2,
    eps = 1e-8,
    { c1, c2 } = adamCorrections(t);
  for (let i = lo; i < hi; i++) {
    const gi = g[i] * scale;
    if (gi === 0 && m[i] === 0) continue; // features never seen keep no momentum
    m[i] = b1 * m[i] + (1 - b1) * gi;
    v[i] = b2 * v[i] + (1 - b2) * gi * gi;
    let x = w[i] * shrink - (lr * (m[i] / c1)) / (Math.sqrt(v[i] / c2) + eps);
    if (x > clip) x = clip;
    else if (x < -clip) x = -clip;
    w[i] = x;
  }
}

/** Thread k's ranges of every weight array, updated. */
export function updateRanges(
  net: FloatNetwork,
  grads: FloatNetwork,
  parts: FloatNetwork[],
  moments: Moments,
  rule: UpdateRule,
  k: number,
  n: number,
  lr: number,
  scale: number,
  t: number,
): void {
  for (let p = 0; p < PARTS.length; p++) {
    const [lo, hi] = sliceRange(0, net[PARTS[p]].length, k, n);
    updateRange(net, grads, parts, moments, rule, p, lo, hi, lr, scale, t);
  }
}

/** A typed array's contents copied onto a SharedArrayBuffer. */
function shared<T extends Float32Array | Uint8Array | Uint16Array | Uint32Array | Int16Array>(a: T): T {
  const ctor = a.constructor as new (b: SharedArrayBuffer) => T;
  const out = new ctor(new SharedArrayBuffer(a.byteLength));
  out.set(a);
  return out;
}

/** What both kinds of step hold: the pass, the summed gradient, every slice's gradient, Adam's moments. */
abstract class StepBuffers {
  protected readonly pass: NnuePass;
  protected readonly grads: FloatNetwork;
  protected readonly parts: FloatNetwork[];
  readonly moments: Moments;
  constructor(
    protected readonly net: FloatNetwork,
    protected readonly set: NnueSet,
    protected readonly idx: Uint32Array,
    protected readonly slices: number,
    protected readonly labels: Labels,
    protected readonly rule: UpdateRule,
    kernel: PassKernel,
    shared: boolean,
  ) {
    this.pass = createPass(net, kernel);
    this.grads = weightBuffers(net, shared);
    this.moments = { m: weightBuffers(net, shared), v: weightBuffers(net, shared) };
    // One slice on one thread writes straight into grads: exactly the single-threaded trainer.
    this.parts = slices === 1 && !shared ? [this.grads] : Array.from({ length: slices }, () => weightBuffers(net, shared));
  }
}

/** The slices, then the ranges, one after another on this thread. */
class SequentialStep extends StepBuffers implements BatchStep {
  run(from: number, to: number, lr: number, t: number): number {
    let loss = 0;
    for (let k = 0; k < this.slices; k++) {
      const [a, b] = sliceRange(from, to, k, this.slices);
      zeroWeights(this.parts[k]);
      loss += this.pass.run(this.set, this.idx, a, b, this.labels, this.parts[k]);
    }
    const scale = 1 / (to - from);
    for (let k = 0; k < this.slices; k++)
      updateRanges(this.net, this.grads, this.parts, this.moments, this.rule, k, this.slices, lr, scale, t);
    return loss;
  }
  close(): void {}
}

/** Slice and ranges 0 on this thread, the others on worker threads. */
class ThreadedStep extends StepBuffers implements BatchStep {
  private readonly control = new Int32Array(new SharedArrayBuffer(4 * CTRL_WORDS));
  private readonly params = new Float64Array(new SharedArrayBuffer(8 * PARAM_WORDS));
  private readonly losses: Float64Array;
  private readonly threads: WorkerPool<never, never>;
  constructor(net: FloatNetwork, set: NnueSet, idx: Uint32Array, slices: number, labels: Labels, rule: UpdateRule, kernel: PassKernel) {
    super(net, set, idx, slices, labels, rule, kernel, true);
    this.losses = new Float64Array(new SharedArrayBuffer(8 * slices));
    // Slices 1 … slices − 1 on the pool's threads, driven through the control block, not tasks:
    // the step is synchronous, so no message would be read while this thread waits on it.
    this.threads = new WorkerPool(new URL('./gradients-worker.js', import.meta.url), {
      threads: slices - 1,
      unref: true,
      workerData: (thread): SliceWorkerData => ({
        slice: thread + 1,
        slices,
        labels,
        rule,
        kernel,
        net,
        parts: this.parts,
        grads: this.grads,
        moments: this.moments,
        set,
        idx,
        control: this.control,
        params: this.params,
        losses: this.losses,
      }),
    });
    // Wait until every worker has built its views (module loading is asynchronous there).
    this.waitFor(CTRL_READY, slices - 1, 100);
  }
  /** Waits until control word `at` reaches `count`, failing if a worker failed. */
  private waitFor(at: number, count: number, ms: number): void {
    for (let d = Atomics.load(this.control, at); d < count; d = Atomics.load(this.control, at)) {
      Atomics.wait(this.control, at, d, ms);
      if (Atomics.load(this.control, CTRL_FAILED) !== 0) {
        this.close();
        throw new Error('tune nnue: a training thread failed (see its error above)');
      }
    }
  }
  run(from: number, to: number, lr: number, t: number): number {
    const c = this.control;
    // Phase 1: each thread its slice's gradient.
    Atomics.store(c, CTRL_FROM, from);
    Atomics.store(c, CTRL_TO, to);
    Atomics.store(c, CTRL_DONE, 0);
    Atomics.store(c, CTRL_DONE2, 0);
    Atomics.add(c, CTRL_GEN, 1);
    Atomics.notify(c, CTRL_GEN);
    const [a, b] = sliceRange(from, to, 0, this.slices);
    zeroWeights(this.parts[0]);
    this.losses[0] = this.pass.run(this.set, this.idx, a, b, this.labels, this.parts[0]);
    this.waitFor(CTRL_DONE, this.slices - 1, 1000);
    // Phase 2: each thread its range of every weight array, summed and updated.
    const scale = 1 / (to - from);
    this.params[PARAM_LR] = lr;
    this.params[PARAM_SCALE] = scale;
    Atomics.store(c, CTRL_T, t);
    Atomics.add(c, CTRL_GEN2, 1);
    Atomics.notify(c, CTRL_GEN2);
    updateRanges(this.net, this.grads, this.parts, this.moments, this.rule, 0, this.slices, lr, scale, t);
    this.waitFor(CTRL_DONE2, this.slices - 1, 1000);
    let loss = 0;
    for (let k = 0; k < this.slices; k++) loss += this.losses[k];
    return loss;
  }
  close(): void {
    Atomics.store(this.control, CTRL_STOP, 1);
    Atomics.add(this.control, CTRL_GEN, 1);
    Atomics.notify(this.control, CTRL_GEN);
    void this.threads.close();
  }
}

/**
 * One slice on one thread on the WebAssembly kernel, with the whole state in the kernel's memory:
 * `net`'s W1, b1, W2 and piece-square arrays, their gradients and Adam's moments are views of it,
 * so a step copies nothing, and Adam runs there too (the kernel's `adam`, updateRange bit for bit;
 * b2, a few numbers, stays in TypeScript). The same numbers as SequentialStep with one slice (test).
 */
class ResidentStep implements BatchStep {
  private readonly pass: WasmPass;
  private readonly grads: FloatNetwork;
  readonly moments: Moments;
  constructor(
    private readonly net: FloatNetwork,
    private readonly set: NnueSet,
    private readonly idx: Uint32Array,
    private readonly labels: Labels,
    private readonly rule: UpdateRule,
  ) {
    const pass = new WasmPass(net, true);
    this.pass = pass;
    const grads = weightBuffers(net, false),
      m = weightBuffers(net, false),
      v = weightBuffers(net, false);
    for (const k of HELD_PARTS) {
      pass.weights[k].set(net[k]);
      net[k] = pass.weights[k];
      grads[k] = pass.grads[k];
      m[k] = pass.moment(k, 0);
      v[k] = pass.moment(k, 1);
      m[k].fill(0);
      v[k].fill(0);
    }
    this.grads = grads;
    this.moments = { m, v };
  }
  run(from: number, to: number, lr: number, t: number): number {
    zeroWeights(this.grads);
    const loss = this.pass.run(this.set, this.idx, from, to, this.labels, this.grads),
      scale = 1 / (to - from),
      { c1, c2 } = adamCorrections(t);
    for (let p = 0; p < PARTS.length; p++) {
      const k = PARTS[p];
      if (k === 'b2') updateRange(this.net, this.grads, [this.grads], this.moments, this.rule, p, 0, this.net.b2.length, lr, scale, t);
      else this.pass.adam(k, this.rule.clip[p], 1 - lr * (this.rule.decayed[p] ? this.rule.decay : 0), lr, scale, c1, c2);
    }
    return loss;
  }
  close(): void {}
}

/**
 * The training step of `net` (whose weight arrays are replaced by shared copies when threads are
 * used, so that the workers see every update) over `set` in the order of `idx` (likewise).
 * `sequential` runs the same slices and ranges on this thread (tests: the threads' numbers).
 */
export function batchStep(
  net: FloatNetwork,
  set: NnueSet,
  idx: Uint32Array,
  opts: { slices: number; labels: Labels; rule: UpdateRule; kernel: PassKernel; sequential?: boolean },
): { step: BatchStep; idx: Uint32Array } {
  if (opts.slices === 1 && opts.sequential !== true && opts.kernel === 'wasm')
    return { step: new ResidentStep(net, set, idx, opts.labels, opts.rule), idx };
  if (opts.slices === 1 || opts.sequential === true)
    return { step: new SequentialStep(net, set, idx, opts.slices, opts.labels, opts.rule, opts.kernel, false), idx };
  for (const k of PARTS) net[k] = shared(net[k]);
  const sharedSet: NnueSet = {
    count: set.count,
    feat: shared(set.feat),
    nFeat: shared(set.nFeat),
    stm: shared(set.stm),
    bucket: shared(set.bucket),
    score: shared(set.score),
    result: shared(set.result),
    ...(set.classical === undefined ? {} : { classical: shared(set.classical) }),
  };
  const sharedIdx = shared(idx);
  return { step: new ThreadedStep(net, sharedSet, sharedIdx, opts.slices, opts.labels, opts.rule, opts.kernel), idx: sharedIdx };
}
