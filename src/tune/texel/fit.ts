/**
 * Texel tuning: choose the evaluation weights that best predict game results.
 *
 *   E(P) = mean_i (r_i - sigma(K * white_i(P) / 400))^2 + lambda * sum_p (P_p - P0_p)^2
 *   sigma(x) = 1 / (1 + 10^-x)
 *
 * r_i is the game result, white_i the evaluation (linear in P, see dataset.ts). K is fitted once to
 * the starting weights (golden-section search), then P is optimised by full-batch Adam. The L2
 * term keeps weights that few positions inform near their starting values instead of letting
 * noise move them (Adam's steps do not shrink with a small gradient), and the error on held-out
 * games decides when to stop: the weights returned are those with the lowest validation error.
 */
import { TERM_COUNT } from '../../engine/evaluate.js';
import { PHASE_MAX } from '../../engine/pst.js';
import { MATERIAL_SLOT, PARAM_COUNT, PST_SLOT, type TuningSet } from './dataset.js';
import type { EvalParamValues } from './eval-params-source.js';
import { goldenSectionMin } from '../golden-section.js';

export function paramsFromValues(v: EvalParamValues): Float64Array {
  const p = new Float64Array(PARAM_COUNT);
  for (let i = 0; i < 2 * TERM_COUNT; i++) p[i] = v.terms[i];
  for (let t = 1; t <= 5; t++) {
    p[2 * (MATERIAL_SLOT + t - 1)] = v.materialMg[t];
    p[2 * (MATERIAL_SLOT + t - 1) + 1] = v.materialEg[t];
  }
  for (let t = 1; t <= 6; t++) {
    for (let sq = 0; sq < 64; sq++) {
      const s = PST_SLOT + (t - 1) * 64 + sq;
      p[2 * s] = v.pstMg[t * 64 + sq];
      p[2 * s + 1] = v.pstEg[t * 64 + sq];
    }
  }
  return p;
}

/** Rounds to integers; the king's material and type-0 rows stay 0. */
export function valuesFromParams(p: Float64Array): EvalParamValues {
  const r = (x: number) => Math.round(x) | 0;
  const v: EvalParamValues = {
    materialMg: [0, 0, 0, 0, 0, 0, 0],
    materialEg: [0, 0, 0, 0, 0, 0, 0],
    pstMg: new Array(7 * 64).fill(0),
    pstEg: new Array(7 * 64).fill(0),
    terms: new Array(2 * TERM_COUNT).fill(0),
  };
  for (let i = 0; i < 2 * TERM_COUNT; i++) v.terms[i] = r(p[i]);
  for (let t = 1; t <= 5; t++) {
    v.materialMg[t] = r(p[2 * (MATERIAL_SLOT + t - 1)]);
    v.materialEg[t] = r(p[2 * (MATERIAL_SLOT + t - 1) + 1]);
  }
  for (let t = 1; t <= 6; t++) {
    for (let sq = 0; sq < 64; sq++) {
      const s = PST_SLOT + (t - 1) * 64 + sq;
      v.pstMg[t * 64 + sq] = r(p[2 * s]);
      v.pstEg[t * 64 + sq] = r(p[2 * s + 1]);
    }
  }
  return v;
}

/** sums[0], sums[1]: the middlegame and endgame sums of position i (feature counts times weights). */
const sums = new Float64Array(2);
function weightedSums(set: TuningSet, p: Float64Array, i: number): void {
  let mg = 0,
    eg = 0;
  for (let j = set.offsets[i], end = set.offsets[i + 1]; j < end; j++) {
    const s = set.slots[j],
      x = set.coefs[j];
    mg += x * p[2 * s];
    eg += x * p[2 * s + 1];
  }
  sums[0] = mg;
  sums[1] = eg;
}

/** The evaluation of position i (White's view) in real arithmetic, as the tuner sees it. */
export function modelEval(set: TuningSet, p: Float64Array, i: number): number {
  weightedSums(set, p, i);
  return sums[0] * set.mgFactor[i] + sums[1] * set.egFactor[i] + set.mopUp[i];
}

/**
 * The same with the engine's integer arithmetic (truncating taper and scale). With integer
 * weights this equals evaluate() from White's view exactly: the tests hold the dataset to that.
 */
export function exactEval(set: TuningSet, p: Float64Array, i: number): number {
  weightedSums(set, p, i);
  const phase = set.phase[i],
    scale = set.scale[i];
  let white = Math.trunc((sums[0] * phase + sums[1] * (PHASE_MAX - phase)) / PHASE_MAX);
  if (scale !== 64) white = Math.trunc((white * scale) / 64);
  else white += set.mopUp[i];
  return white | 0;
}

const LN10 = Math.log(10);

function sigmoid(k: number, e: number): number {
  return 1 / (1 + Math.exp((-LN10 * k * e) / 400));
}

/** Mean squared error of the result prediction over the set (no regularisation). */
export function meanSquaredError(set: TuningSet, p: Float64Array, k: number): number {
  let sum = 0;
  for (let i = 0; i < set.count; i++) {
    const d = set.result[i] - sigmoid(k, modelEval(set, p, i));
    sum += d * d;
  }
  return set.count === 0 ? 0 : sum / set.count;
}

/** The K that minimises the error for fixed weights (golden-section search on [lo, hi]). */
export function fitK(set: TuningSet, p: Float64Array, lo = 0.1, hi = 4, iterations = 40): number {
  return goldenSectionMin((k) => meanSquaredError(set, p, k), lo, hi, iterations);
}

export interface TuneOptions {
  k: number;
  iterations: number;
  /**
   * 'adam': step size in centipawns per iteration, the same for every weight however little
   * the data says about it. 'gd': plain gradient descent, step = lr * gradient, so weights the
   * data barely informs move little (lr is then large, e.g. 5000).
   */
  optimizer?: 'adam' | 'gd';
  lr: number;
  /** L2 pull of every weight towards its starting value. */
  lambda: number;
  /** frozen[p] !== 0: parameter p keeps its starting value. */
  frozen?: Uint8Array;
  /**
   * Piece-square changes shared by mirror squares (a-file with h-file, ...): each pair moves by
   * the same amount, which halves what the data must pin down. The starting tables may differ.
   */
  mirrorPst?: boolean;
  /** Held-out positions: every `reportEvery` iterations their error is measured and the best weights kept. */
  validation?: TuningSet;
  /** Called every `reportEvery` iterations with the training error (before the step) and the validation error. */
  onProgress?: (iteration: number, mse: number, validationMse: number) => void;
  reportEvery?: number;
}

export interface TuneResult {
  params: Float64Array;
  /** Iteration whose weights were returned (the best on validation, or the last). */
  bestIteration: number;
  bestValidationMse: number;
}

export type ParamGroup = 'terms' | 'material' | 'pst';

/** A freeze mask for the named groups of parameters. */
export function freezeMask(groups: ParamGroup[]): Uint8Array {
  const mask = new Uint8Array(PARAM_COUNT);
  for (let q = 0; q < PARAM_COUNT; q++) {
    const slot = q >> 1;
    const group: ParamGroup = slot < MATERIAL_SLOT ? 'terms' : slot < PST_SLOT ? 'material' : 'pst';
    if (groups.includes(group)) mask[q] = 1;
  }
  return mask;
}

/** Full-batch Adam on E(P). Returns the tuned parameters (start is not modified). */
export function tune(set: TuningSet, start: Float64Array, opts: TuneOptions): TuneResult {
  const p = start.slice();
  const valid = opts.validation && opts.validation.count > 0 ? opts.validation : undefined;
  let best = p.slice(),
    bestIteration = 0,
    bestValidationMse = valid ? meanSquaredError(valid, p, opts.k) : NaN;
  const grad = new Float64Array(PARAM_COUNT),
    m = new Float64Array(PARAM_COUNT),
    v = new Float64Array(PARAM_COUNT);
  const b1 = 0.9,
    b2 = 0.999,
    eps = 1e-8;
  const scale = (LN10 * opts.k) / 400;
  const every = opts.reportEvery ?? 50;
  for (let it = 1; it <= opts.iterations; it++) {
    grad.fill(0);
    let sum = 0;
    for (let i = 0; i < set.count; i++) {
      const s = sigmoid(opts.k, modelEval(set, p, i));
      const d = set.result[i] - s;
      sum += d * d;
      // d/dwhite of (r - s)^2 = -2 (r - s) s (1 - s) * ln10 * K / 400
      const gw = (-2 * d * s * (1 - s) * scale) / set.count;
      const gm = gw * set.mgFactor[i],
        ge = gw * set.egFactor[i];
      for (let j = set.offsets[i], end = set.offsets[i + 1]; j < end; j++) {
        const sl = set.slots[j],
          x = set.coefs[j];
        grad[2 * sl] += x * gm;
        grad[2 * sl + 1] += x * ge;
      }
    }
    if (it % every === 0 || it === opts.iterations) {
      // Error of the weights before this step, i.e. after it - 1 steps.
      const vm = valid ? meanSquaredError(valid, p, opts.k) : NaN;
      if (valid && vm < bestValidationMse) {
        bestValidationMse = vm;
        best = p.slice();
        bestIteration = it - 1;
      }
      opts.onProgress?.(it, sum / Math.max(1, set.count), vm);
    }
    if (opts.mirrorPst) {
      for (let q = 2 * PST_SLOT; q < PARAM_COUNT; q++) {
        const sq = ((q >> 1) - PST_SLOT) & 63;
        if ((sq & 7) >= 4) continue;
        const r = q + 2 * (7 - 2 * (sq & 7)); // same type and phase, file mirrored
        const g = grad[q] + grad[r];
        grad[q] = g;
        grad[r] = g;
      }
    }
    const c1 = 1 - Math.pow(b1, it),
      c2 = 1 - Math.pow(b2, it);
    for (let q = 0; q < PARAM_COUNT; q++) {
      let g = grad[q];
      if ((g === 0 && m[q] === 0) || (opts.frozen && opts.frozen[q] !== 0)) continue; // never seen in the data, or frozen
      g += 2 * opts.lambda * (p[q] - start[q]);
      if (opts.optimizer === 'gd') {
        p[q] -= opts.lr * g;
        continue;
      }
      m[q] = b1 * m[q] + (1 - b1) * g;
      v[q] = b2 * v[q] + (1 - b2) * g * g;
      p[q] -= (opts.lr * (m[q] / c1)) / (Math.sqrt(v[q] / c2) + eps);
    }
  }
  if (!valid) return { params: p, bestIteration: opts.iterations, bestValidationMse };
  const vm = meanSquaredError(valid, p, opts.k);
  if (vm < bestValidationMse) return { params: p, bestIteration: opts.iterations, bestValidationMse: vm };
  return { params: best, bestIteration, bestValidationMse };
}
