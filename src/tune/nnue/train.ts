/**
 * The learned evaluation's trainer (docs/nnue.md): float32 training of the network of
 * src/engine/nnue/network.ts, then quantisation to its integer file.
 *
 *   acc_p = b1 + Σ W1[:, f] over the features of perspective p      (p = side to move, other)
 *   out   = Σ clamp(acc_stm, 0, 1)·W2[b][0:H] + Σ clamp(acc_other, 0, 1)·W2[b][H:2H] + b2[b]
 *           + (Σ P[f_stm][b] − Σ P[f_other][b]) / 2       (the piece-square term, started from the
 *                                                           classical evaluation's tapered tables)
 *   eval  = 400·out centipawns; prediction σ(400·out / K); target λ·result + (1 − λ)·σ(score / K)
 *   (K, `wdlScale`: 400 unless set)
 *
 * A residual network (`residual`) is a correction to the classical evaluation c: the prediction is
 * σ((400·out + c) / K), the piece-square term starts at zero, and the engine adds the network's output
 * to the classical evaluation (notebook/nnue-generations.md, generation 3).
 *
 * Mean squared error of the prediction against the target, Adam with a cosine learning-rate schedule,
 * weights clipped to what the quantised file can hold; the best epoch on the held-out set wins.
 * Deterministic for a seed and a number of threads: a seeded shuffle, a fixed summation order
 * (gradients.ts).
 */
import { Sfc32 } from '../../core/rng.js';
import { NNUE_INPUTS, arithmeticProblem, type NnueActivation, type NnueKind, type NnueNetwork } from '../../engine/nnue/network.js';
import { EG_TABLE, MG_TABLE, PHASE_MAX } from '../../engine/pst.js';
import { PLAIN_INPUTS, type NnueFeatures } from '../../engine/nnue/features.js';
import type { NnueSet } from './dataset.js';
import {
  SCALE,
  factorBase,
  labelsOf,
  positionColumns,
  sigmoid,
  target,
  trainerInputs,
  type FloatNetwork,
  type Labels,
  type PassKernel,
} from './pass.js';
import { createPass } from './pass-wasm.js';
import { PARTS, batchStep, type BatchStep, type Moments } from './gradients.js';
import { goldenSectionMin } from '../golden-section.js';

export type { FloatNetwork };

export const QA = 255,
  QB = 64;
export { SCALE };
/** |W1|, |W2| ≤ CLIP so that QA·W1 and QB·W2 fit their integer types with room to sum. */
const CLIP = 127 / QB;

export interface TrainOptions {
  hidden: number;
  buckets: number;
  epochs: number;
  batch: number;
  lr: number;
  /** λ: weight of the game result in the target (the rest is the search score). */
  resultWeight: number;
  /** λ in output bucket 0 (the fewest pieces), linear in the bucket up to `resultWeight` in the top one; default `resultWeight`. */
  endgameResultWeight?: number;
  /** Start from these weights (a checkpoint's best network, `--init`) instead of random ones. */
  initNet?: FloatNetwork;
  /**
   * K: centipawns per unit before σ in the label and the prediction (default SCALE, 400). The
   * scores of our games predict their results best at about K = 175 (docs/nnue.md); a smaller K
   * weighs errors in level positions more and errors in won ones less.
   */
  wdlScale?: number;
  seed: number;
  /** Train a correction to the classical evaluation (the sets must carry `classical`). */
  residual?: boolean;
  /** The hidden layer's activation: clipped ReLU (the default) or its square. */
  activation?: NnueActivation;
  /** The input features: plain (the default) or king-mirrored (src/engine/nnue/features.ts). */
  features?: NnueFeatures;
  /**
   * Decoupled weight decay (AdamW) on the layer weights W1 and W2, per step w −= lr·decay·w,
   * applied to every weight the data has reached: it pulls weights the data barely supports toward 0.
   * 0 (the default) is plain Adam.
   */
  weightDecay?: number;
  /**
   * Each batch's gradient in this many slices, summed in order, each on its own thread (this
   * one and threads − 1 workers): deterministic for a given number; 1 (the default) is the
   * single-threaded trainer.
   */
  threads?: number;
  /** Run the slices one after another on this thread instead (tests: the threads' numbers). */
  sequentialSlices?: boolean;
  /** The pass's kernel: WebAssembly SIMD (the default) or the TypeScript reference; the same numbers either way. */
  kernel?: PassKernel;
  onEpoch?: (e: EpochReport) => void;
  onBatch?: (done: number, total: number) => void;
  /** Called after each epoch with where the run stands (copies): what a checkpoint keeps. */
  onCheckpoint?: (s: TrainState) => void;
  /**
   * Continue a run from the state a checkpoint kept after epoch `s.epoch`, with the same options
   * and data: the result is the uninterrupted run's, bit for bit.
   */
  resumeFrom?: TrainState;
}

/**
 * A run after an epoch: the weights, Adam's moments, the best network so far and the reports.
 * The shuffled order is not kept: it is replayed from the seed.
 */
export interface TrainState {
  epoch: number;
  net: FloatNetwork;
  moments: Moments;
  bestNet: FloatNetwork;
  best: EpochReport;
  history: EpochReport[];
}

export interface EpochReport {
  epoch: number;
  lr: number;
  trainLoss: number;
  validationLoss: number;
  seconds: number;
}

export function initNetwork(
  hidden: number,
  buckets: number,
  seed: number,
  kind: NnueKind = 'evaluation',
  activation: NnueActivation = 'crelu',
  features: NnueFeatures = 'plain',
): FloatNetwork {
  const rng = new Sfc32(seed);
  const uni = (a: number): number => (((rng.next() >>> 0) / 4294967296) * 2 - 1) * a;
  // A king-buckets network starts as a plain one: its factor block (the plain features, added to
  // every bucket's columns) drawn as a plain network's W1, the buckets' own columns at 0.
  const fb = factorBase(features),
    w1 = new Float32Array(trainerInputs(features) * hidden);
  w1.subarray(Math.max(0, fb) * hidden).forEach((_, j, a) => (a[j] = uni(1 / Math.sqrt(32))));
  const b1 = new Float32Array(hidden).map(() => 0.1 + uni(0.05));
  // A residual starts as no correction at all (output weights 0): exactly the classical evaluation.
  const w2 = new Float32Array(buckets * 2 * hidden).map(() => uni(1 / Math.sqrt(2 * hidden)) * (kind === 'residual' ? 0 : 1));
  // A residual starts from no correction; an evaluation from the classical material and tables.
  const psqt = new Float32Array(trainerInputs(features) * buckets);
  if (kind !== 'residual') psqt.set(classicalPsqt(buckets), Math.max(0, fb) * buckets);
  return { kind, activation, features, hidden, buckets, w1, b1, w2, b2: new Float32Array(buckets), psqt };
}

/**
 * The piece-square term's starting point: the classical evaluation's material + piece-square
 * tables (our own tuned weights), tapered at each bucket's typical phase, in output units (cp/400).
 * Own pieces count +, the opponent's −, each from its own side's view of the table.
 */
export function classicalPsqt(buckets: number): Float32Array {
  const p = new Float32Array(NNUE_INPUTS * buckets);
  for (let b = 0; b < buckets; b++) {
    // Bucket b holds about 2 + (b + 0.5)·32/buckets pieces; the phase grows with them (0 … 24).
    const pieces = 2 + ((b + 0.5) * 32) / buckets,
      phase = Math.max(0, Math.min(PHASE_MAX, ((pieces - 18) * PHASE_MAX) / 14));
    for (let rel = 0; rel < 2; rel++) {
      for (let t = 1; t <= 6; t++) {
        for (let sq = 0; sq < 64; sq++) {
          const own = rel === 0 ? sq : sq ^ 56; // the piece's square from its owner's side
          const v = (MG_TABLE[t * 64 + own] * phase + EG_TABLE[t * 64 + own] * (PHASE_MAX - phase)) / PHASE_MAX;
          p[((rel * 6 + t - 1) * 64 + sq) * buckets + b] = (rel === 0 ? v : -v) / SCALE;
        }
      }
    }
  }
  return p;
}

export function meanLoss(net: FloatNetwork, set: NnueSet, labels: Labels, kernel: PassKernel = 'wasm'): number {
  if (set.count === 0) return NaN;
  const idx = new Uint32Array(set.count).map((_, i) => i);
  return createPass(net, kernel).run(set, idx, 0, set.count, labels, null) / set.count;
}

/** Mean squared error of σ(score / K) against the game results of `set` (every `stride`-th position). */
export function resultLoss(set: NnueSet, wdlScale: number, stride = 1): number {
  let loss = 0,
    n = 0;
  for (let i = 0; i < set.count; i += stride, n++) {
    const e = sigmoid(set.score[i] / wdlScale) - set.result[i];
    loss += e * e;
  }
  return n === 0 ? NaN : loss / n;
}

/**
 * The K at which the search scores of `set` best predict its game results (resultLoss least),
 * between 20 and 2000 cp, to about 1 cp: a golden-section search, the loss having one minimum in K.
 */
export function fitWdlScale(set: NnueSet, stride = 1): number {
  // 16 shrinks by 0.618 take the 1,980 cp interval below 1 cp.
  return Math.round(goldenSectionMin((k) => resultLoss(set, k, stride), 20, 2000, 16));
}

/** Each step scales W1 and W2 by 1 − lr·decay: at 1 or more they would vanish or flip sign. */
export function weightDecayAllowed(lr: number, decay: number): boolean {
  return decay >= 0 && lr * decay < 1;
}

/** The loss of the classical evaluation on `set` (it must carry `classical`), scored like the network's. */
export function classicalLoss(set: NnueSet, labels: Labels): number {
  if (!set.classical || set.count === 0) return NaN;
  let loss = 0;
  for (let i = 0; i < set.count; i++) {
    const e = sigmoid(set.classical[i] / labels.wdlScale) - target(set, i, labels);
    loss += e * e;
  }
  return loss / set.count;
}

export interface TrainResult {
  net: FloatNetwork;
  best: EpochReport;
  history: EpochReport[];
}

export function train(trainSet: NnueSet, validation: NnueSet, opts: TrainOptions): TrainResult {
  const kind: NnueKind = opts.residual === true ? 'residual' : 'evaluation';
  if (kind === 'residual' && (!trainSet.classical || !validation.classical))
    throw new Error('a residual network needs the classical evaluation of every position');
  const net = initNetwork(opts.hidden, opts.buckets, opts.seed, kind, opts.activation ?? 'crelu', opts.features ?? 'plain');
  const rng = new Sfc32(opts.seed ^ 0x5eed);
  const decay = opts.weightDecay ?? 0;
  if (!weightDecayAllowed(opts.lr, decay))
    throw new RangeError(`weight decay ${decay} with learning rate ${opts.lr}: the decay must be at least 0 and their product below 1`);
  // Each batch's gradient in `threads` slices and the update in as many ranges (on worker threads
  // unless `sequentialSlices`); the weights and the index move to shared memory for threads.
  // W1 and W2 are clipped to what the file can hold and decayed; the rest is not decayed.
  // A factorised W1 is clipped at half the bound, so that the file's sums of two columns are within it.
  const factorised = factorBase(net.features) >= 0,
    w1Clip = factorised ? CLIP / 2 : CLIP,
    psqtClip = factorised ? 10 : 20;
  const rule = { clip: [w1Clip, 60, CLIP, 60, psqtClip], decayed: [true, false, true, false, false], decay };
  const labels = labelsOf(opts.resultWeight, opts.wdlScale, opts.endgameResultWeight, opts.buckets);
  const { step, idx } = batchStep(
    net,
    trainSet,
    new Uint32Array(trainSet.count).map((_, i) => i),
    {
      slices: opts.threads ?? 1,
      labels,
      rule,
      sequential: opts.sequentialSlices,
      kernel: opts.kernel ?? 'wasm',
    },
  );
  try {
    if (opts.resumeFrom) restore(net, step.moments, opts.resumeFrom);
    else if (opts.initNet) copyWeights(net, opts.initNet, 'the starting network');
    return trainEpochs(net, step, idx, validation, labels, opts, rng);
  } finally {
    step.close();
  }
}

function trainEpochs(
  net: FloatNetwork,
  step: BatchStep,
  idx: Uint32Array,
  validation: NnueSet,
  labels: Labels,
  opts: TrainOptions,
  rng: Sfc32,
): TrainResult {
  const count = idx.length;
  const batchesPerEpoch = Math.ceil(count / opts.batch);
  const resumed = opts.resumeFrom;
  const history: EpochReport[] = resumed ? resumed.history.slice() : [];
  let best: EpochReport | undefined = resumed?.best,
    bestNet = resumed ? resumed.bestNet : cloneNet(net),
    t = 0;
  const shuffle = (): void => {
    for (let i = idx.length - 1; i > 0; i--) {
      const j = (rng.next() >>> 0) % (i + 1);
      const x = idx[i];
      idx[i] = idx[j];
      idx[j] = x;
    }
  };
  // A resumed run replays the epochs' shuffles (the order is cumulative) and step count.
  for (let epoch = 1; epoch <= (resumed?.epoch ?? 0); epoch++) {
    shuffle();
    t += batchesPerEpoch;
  }
  for (let epoch = (resumed?.epoch ?? 0) + 1; epoch <= opts.epochs; epoch++) {
    const t0 = Date.now();
    shuffle();
    // Cosine schedule from lr down to lr/20 over the run.
    const lr = opts.lr * (0.05 + 0.95 * 0.5 * (1 + Math.cos((Math.PI * (epoch - 1)) / Math.max(1, opts.epochs))));
    let loss = 0;
    for (let b = 0; b < batchesPerEpoch; b++) {
      const from = b * opts.batch,
        to = Math.min(count, from + opts.batch);
      loss += step.run(from, to, lr, ++t);
      opts.onBatch?.((epoch - 1) * batchesPerEpoch + b + 1, opts.epochs * batchesPerEpoch);
    }
    const report: EpochReport = {
      epoch,
      lr,
      trainLoss: loss / count,
      validationLoss: meanLoss(net, validation, labels, opts.kernel),
      seconds: (Date.now() - t0) / 1000,
    };
    history.push(report);
    opts.onEpoch?.(report);
    if (!best || !(report.validationLoss >= best.validationLoss)) {
      best = report;
      bestNet = cloneNet(net);
    }
    opts.onCheckpoint?.({
      epoch,
      net: cloneNet(net),
      moments: { m: cloneNet(step.moments.m), v: cloneNet(step.moments.v) },
      bestNet,
      best,
      history: history.slice(),
    });
  }
  return { net: bestNet, best: best!, history };
}

/** Refuses weights (or moments) `from` whose parts differ in length from `net`'s. */
function checkShape(net: FloatNetwork, from: FloatNetwork, what: string): void {
  for (const k of PARTS)
    if (from[k].length !== net[k].length) throw new RangeError(`${what}: ${k} has ${from[k].length} weights, the network ${net[k].length}`);
}

/** `from`'s weights into `net`'s own arrays (shared ones too). */
function copyWeights(net: FloatNetwork, from: FloatNetwork, what: string): void {
  checkShape(net, from, what);
  for (const k of PARTS) net[k].set(from[k]);
}

/** The weights and moments of a checkpoint, copied into the run's own arrays (shared ones too). */
function restore(net: FloatNetwork, moments: Moments, s: TrainState): void {
  for (const from of [s.net, s.moments.m, s.moments.v, s.bestNet]) checkShape(net, from, 'checkpoint');
  for (const k of PARTS) {
    net[k].set(s.net[k]);
    moments.m[k].set(s.moments.m[k]);
    moments.v[k].set(s.moments.v[k]);
  }
}

function cloneNet(n: FloatNetwork): FloatNetwork {
  return {
    kind: n.kind,
    activation: n.activation,
    features: n.features,
    hidden: n.hidden,
    buckets: n.buckets,
    w1: n.w1.slice(),
    b1: n.b1.slice(),
    w2: n.w2.slice(),
    b2: n.b2.slice(),
    psqt: n.psqt.slice(),
  };
}

/**
 * The integer network: W1, b1 × QA (int16), W2 × QB (int16, |w| ≤ 127), b2 × QA·QB (int32, |b2| ≤
 * 2^30), the piece-square term × QA·QB (|p| ≤ 2^22). These clips keep every width the kernels'
 * bounds (arithmeticProblem): QA·127 = 32385 fits the squared activation's int16 products, and
 * 2H·QA·127 + 2^30 + 32·2^22 < 2^31 up to 4096 neurons; so the file loads, and both kernels
 * evaluate it exactly, with either activation.
 */
export function quantise(n: FloatNetwork, meta: { positions: number; seed: number; epochs: number; description: string }): NnueNetwork {
  const q = (x: number, s: number, lim: number): number => Math.max(-lim, Math.min(lim, Math.round(x * s)));
  const w1 = mergeFactor(n.w1, n.features, n.hidden),
    psqt = mergeFactor(n.psqt, n.features, n.buckets);
  const net: NnueNetwork = {
    kind: n.kind,
    activation: n.activation,
    features: n.features,
    hidden: n.hidden,
    buckets: n.buckets,
    qa: QA,
    qb: QB,
    scale: SCALE,
    ...meta,
    w1: Int16Array.from(w1, (x) => q(x, QA, 32767)),
    b1: Int16Array.from(n.b1, (x) => q(x, QA, 32767)),
    w2: Int16Array.from(n.w2, (x) => q(x, QB, 127)),
    b2: Int32Array.from(n.b2, (x) => q(x, QA * QB, 2 ** 30)),
    psqt: Int32Array.from(psqt, (x) => q(x, QA * QB, 2 ** 22)),
  };
  // Never reached with the clips above; a change to them that breaks the bounds fails here, not in the engine.
  const problem = arithmeticProblem(net);
  if (problem !== undefined) throw new RangeError(`quantised network: ${problem}`);
  return net;
}

/**
 * The file's rows of a trainer array of `width` columns a row: each feature's row plus the
 * factor block's row of its plain feature (a king-buckets network), or the array itself.
 */
export function mergeFactor(a: Float32Array, features: NnueFeatures, width: number): Float32Array {
  const fb = factorBase(features);
  if (fb < 0) return a;
  const out = new Float32Array(fb * width);
  for (let r = 0; r < fb; r++) {
    const f = (fb + (r % PLAIN_INPUTS)) * width;
    for (let j = 0; j < width; j++) out[r * width + j] = a[r * width + j] + a[f + j];
  }
  return out;
}

/** The float network's own output in centipawns, side to move's view, without the classical part of a residual (tests compare it with the integer one). */
export function floatEval(n: FloatNetwork, set: NnueSet, i: number): number {
  const H = n.hidden,
    accS = n.b1.slice(),
    accN = n.b1.slice(),
    colS = new Int32Array(64),
    colN = new Int32Array(64),
    nc = positionColumns(set, i, n.features, colS, colN);
  for (let c = 0; c < nc; c++) {
    const cs = colS[c] * H,
      cn = colN[c] * H;
    for (let j = 0; j < H; j++) {
      accS[j] += n.w1[cs + j];
      accN[j] += n.w1[cn + j];
    }
  }
  const wo = set.bucket[i] * 2 * H,
    NB = n.buckets,
    b = set.bucket[i];
  let out = n.b2[b];
  for (let c = 0; c < nc; c++) out += 0.5 * (n.psqt[colS[c] * NB + b] - n.psqt[colN[c] * NB + b]);
  const act =
    n.activation === 'screlu'
      ? (x: number): number => Math.min(1, Math.max(0, x)) ** 2
      : (x: number): number => Math.min(1, Math.max(0, x));
  for (let j = 0; j < H; j++) out += act(accS[j]) * n.w2[wo + j] + act(accN[j]) * n.w2[wo + H + j];
  return out * SCALE;
}
