/**
 * The gradient of one training batch, split into `slices` contiguous parts whose gradients are
 * summed in slice order. The same numbers come out whether the slices run one after another in
 * this thread or at once, one on this thread and the others on worker threads: a run is
 * deterministic for a given number of slices (`tune nnue --threads`), and one slice is exactly
 * the single-threaded trainer.
 *
 * The threads share memory: the training set, the shuffled index and the network's weights
 * (which Adam updates in place between batches) live on SharedArrayBuffers, each slice has its
 * own gradient buffers, and a control block read and written with Atomics starts a batch and
 * says when every slice is done. The trainer stays synchronous, as the search does with its
 * helper threads.
 */
import { Worker } from 'node:worker_threads';
import type { NnueSet } from './nnue-dataset.js';
import { Pass, type FloatNetwork } from './nnue-pass.js';

/** Control block: batch generation, range, slices done, a failed slice's flag; losses beside it. */
export const CTRL_GEN = 0,
  CTRL_FROM = 1,
  CTRL_TO = 2,
  CTRL_DONE = 3,
  CTRL_FAILED = 4,
  CTRL_STOP = 5,
  CTRL_READY = 6,
  CTRL_WORDS = 8;

export interface BatchGradients {
  /** The summed gradient of the last batch. */
  readonly grads: FloatNetwork;
  /** Gradients of positions idx[from, to) into `grads`; returns the summed squared error. */
  compute(from: number, to: number): number;
  close(): void;
}

/** What a worker needs to build its views of the shared memory. */
export interface SliceWorkerData {
  slice: number;
  slices: number;
  resultWeight: number;
  net: FloatNetwork;
  grads: FloatNetwork;
  set: NnueSet;
  idx: Uint32Array;
  control: Int32Array;
  losses: Float64Array;
}

/** Slice k of [from, to) when it is cut into n parts. */
export function sliceRange(from: number, to: number, k: number, n: number): [number, number] {
  const len = to - from;
  return [from + Math.floor((k * len) / n), from + Math.floor(((k + 1) * len) / n)];
}

/** Gradient buffers shaped like `net` (on shared memory when `shared`). */
export function gradientBuffers(net: FloatNetwork, shared: boolean): FloatNetwork {
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

const PARTS = ['w1', 'b1', 'w2', 'b2', 'psqt'] as const;

function zero(g: FloatNetwork): void {
  for (const k of PARTS) g[k].fill(0);
}

/** out = Σ parts in order (out may be parts[0]). */
function sumInto(out: FloatNetwork, parts: FloatNetwork[]): void {
  for (const k of PARTS) {
    const o = out[k];
    if (o !== parts[0][k]) o.set(parts[0][k]);
    for (let p = 1; p < parts.length; p++) {
      const a = parts[p][k];
      for (let i = 0; i < o.length; i++) o[i] += a[i];
    }
  }
}

/** A typed array's contents copied onto a SharedArrayBuffer. */
function shared<T extends Float32Array | Uint8Array | Uint16Array | Uint32Array | Int16Array>(a: T): T {
  const ctor = a.constructor as new (b: SharedArrayBuffer) => T;
  const out = new ctor(new SharedArrayBuffer(a.byteLength));
  out.set(a);
  return out;
}

/** The slices one after another on this thread. */
class SequentialGradients implements BatchGradients {
  readonly grads: FloatNetwork;
  private readonly parts: FloatNetwork[];
  private readonly pass: Pass;
  constructor(
    net: FloatNetwork,
    private readonly set: NnueSet,
    private readonly idx: Uint32Array,
    private readonly slices: number,
    private readonly resultWeight: number,
  ) {
    this.pass = new Pass(net);
    this.grads = gradientBuffers(net, false);
    // One slice writes straight into grads: exactly the single-threaded trainer.
    this.parts = slices === 1 ? [this.grads] : Array.from({ length: slices }, () => gradientBuffers(net, false));
  }
  compute(from: number, to: number): number {
    let loss = 0;
    for (let k = 0; k < this.slices; k++) {
      const [a, b] = sliceRange(from, to, k, this.slices);
      zero(this.parts[k]);
      loss += this.pass.run(this.set, this.idx, a, b, this.resultWeight, this.parts[k]);
    }
    if (this.slices > 1) sumInto(this.grads, this.parts);
    return loss;
  }
  close(): void {}
}

/** Slice 0 on this thread, the others on worker threads. */
class ThreadedGradients implements BatchGradients {
  readonly grads: FloatNetwork;
  private readonly parts: FloatNetwork[];
  private readonly pass: Pass;
  private readonly control = new Int32Array(new SharedArrayBuffer(4 * CTRL_WORDS));
  private readonly losses: Float64Array;
  private readonly workers: Worker[] = [];
  constructor(
    net: FloatNetwork,
    private readonly set: NnueSet,
    private readonly idx: Uint32Array,
    private readonly slices: number,
    private readonly resultWeight: number,
  ) {
    this.pass = new Pass(net);
    this.grads = gradientBuffers(net, false);
    this.parts = Array.from({ length: slices }, () => gradientBuffers(net, true));
    this.losses = new Float64Array(new SharedArrayBuffer(8 * slices));
    for (let k = 1; k < slices; k++) {
      const data: SliceWorkerData = {
        slice: k,
        slices,
        resultWeight,
        net,
        grads: this.parts[k],
        set,
        idx,
        control: this.control,
        losses: this.losses,
      };
      const w = new Worker(new URL('./nnue-gradients-worker.js', import.meta.url), { workerData: data });
      w.unref();
      this.workers.push(w);
    }
    // Wait until every worker has built its views (module loading is asynchronous there).
    for (let r = Atomics.load(this.control, CTRL_READY); r < slices - 1; r = Atomics.load(this.control, CTRL_READY)) {
      Atomics.wait(this.control, CTRL_READY, r, 100);
      this.checkFailed();
    }
  }
  private checkFailed(): void {
    if (Atomics.load(this.control, CTRL_FAILED) !== 0) {
      this.close();
      throw new Error('tune nnue: a training thread failed (see its error above)');
    }
  }
  compute(from: number, to: number): number {
    const c = this.control;
    Atomics.store(c, CTRL_FROM, from);
    Atomics.store(c, CTRL_TO, to);
    Atomics.store(c, CTRL_DONE, 0);
    Atomics.add(c, CTRL_GEN, 1);
    Atomics.notify(c, CTRL_GEN);
    const [a, b] = sliceRange(from, to, 0, this.slices);
    zero(this.parts[0]);
    this.losses[0] = this.pass.run(this.set, this.idx, a, b, this.resultWeight, this.parts[0]);
    for (let d = Atomics.load(c, CTRL_DONE); d < this.slices - 1; d = Atomics.load(c, CTRL_DONE)) {
      Atomics.wait(c, CTRL_DONE, d, 1000);
      this.checkFailed();
    }
    sumInto(this.grads, this.parts);
    let loss = 0;
    for (let k = 0; k < this.slices; k++) loss += this.losses[k];
    return loss;
  }
  close(): void {
    Atomics.store(this.control, CTRL_STOP, 1);
    Atomics.add(this.control, CTRL_GEN, 1);
    Atomics.notify(this.control, CTRL_GEN);
    for (const w of this.workers) void w.terminate();
    this.workers.length = 0;
  }
}

/**
 * The batch gradients of `net` (whose weight arrays are replaced by shared copies when threads
 * are used, so that the workers see every update) over `set` in the order of `idx` (likewise).
 * `sequential` runs the same slices on this thread (tests: the same numbers as the threads).
 */
export function batchGradients(
  net: FloatNetwork,
  set: NnueSet,
  idx: Uint32Array,
  opts: { slices: number; resultWeight: number; sequential?: boolean },
): { gradients: BatchGradients; set: NnueSet; idx: Uint32Array } {
  if (opts.slices === 1 || opts.sequential === true)
    return { gradients: new SequentialGradients(net, set, idx, opts.slices, opts.resultWeight), set, idx };
  for (const k of PARTS) net[k] = shared(net[k]);
  const sharedSet: NnueSet = {
    count: set.count,
    feat: shared(set.feat),
    nFeat: shared(set.nFeat),
    kingWings: shared(set.kingWings),
    stm: shared(set.stm),
    bucket: shared(set.bucket),
    score: shared(set.score),
    result: shared(set.result),
    ...(set.classical === undefined ? {} : { classical: shared(set.classical) }),
  };
  const sharedIdx = shared(idx);
  return { gradients: new ThreadedGradients(net, sharedSet, sharedIdx, opts.slices, opts.resultWeight), set: sharedSet, idx: sharedIdx };
}
