/**
 * The float network the trainer fits (the integer network of src/engine/nnue/network.ts before
 * quantisation) and its forward and backward pass over training positions.
 *
 *   acc_p = b1 + Σ W1[:, f] over the features of perspective p      (p = side to move, other)
 *   out   = Σ act(acc_stm)·W2[b][0:H] + Σ act(acc_other)·W2[b][H:2H] + b2[b]
 *           + (Σ P[f_stm][b] − Σ P[f_other][b]) / 2   (+ classical / SCALE for a residual)
 *   prediction σ(out·SCALE/K); target λ_b·result + (1 − λ_b)·σ(score / K); squared error
 *   (λ_b: the result's weight in output bucket b, labelsOf).
 *
 * K, the labels' win-probability scale (`wdlScale`, centipawns), is SCALE unless set: the output's
 * units stay SCALE centipawns either way, and K only says how quickly a score turns into an
 * expected result, so which errors the loss weighs (docs/nnue.md, training).
 */
import { BLACK, KING, WHITE, makePiece } from '../../core/types.js';
import {
  featureIndex,
  featureInputs,
  kingTransform,
  mirrorFeature,
  PLAIN_INPUTS,
  transformFeature,
  type NnueFeatures,
} from '../../engine/nnue/features.js';
import type { NnueActivation, NnueKind } from '../../engine/nnue/network.js';
import type { NnueSet } from './dataset.js';

/** Centipawns per unit of the network's output (σ(out) is the expected score). */
export const SCALE = 400;

export interface FloatNetwork {
  kind: NnueKind;
  activation: NnueActivation;
  features: NnueFeatures;
  hidden: number;
  buckets: number;
  w1: Float32Array;
  b1: Float32Array;
  w2: Float32Array;
  b2: Float32Array;
  psqt: Float32Array;
}

export const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));

/**
 * Where the trainer's shared (factor) columns start, or −1 when there are none. A king-buckets
 * network trains one extra block of 768 columns, the plain features, added to every bucket's: what
 * all king positions share is learned from all of them, and each bucket learns only its difference
 * from it. The file holds their sums (quantise).
 */
export function factorBase(features: NnueFeatures): number {
  return features === 'king-buckets' ? featureInputs(features) : -1;
}

/** W1 rows (and piece-square rows) of the float network: the file's inputs, and the factor block. */
export function trainerInputs(features: NnueFeatures): number {
  return featureInputs(features) + (factorBase(features) >= 0 ? PLAIN_INPUTS : 0);
}

// The kings' first features (on a1) in the data's White view: the engine's own index, not a copy.
const WHITE_KING = featureIndex(WHITE, makePiece(WHITE, KING), 0),
  BLACK_KING = featureIndex(WHITE, makePiece(BLACK, KING), 0);

/**
 * The king transforms (src/engine/nnue/features.ts) of training position i's perspectives, White's + 65536 · Black's,
 * from its features (White's view, plain), which include both kings.
 */
export function positionKings(set: NnueSet, i: number, features: NnueFeatures): number {
  if (features === 'plain') return 0;
  let wk = 0,
    bk = 0;
  for (let f = 0, base = i * 32, n = set.nFeat[i]; f < n; f++) {
    const x = set.feat[base + f];
    if (x >= WHITE_KING && x < WHITE_KING + 64) wk = x - WHITE_KING;
    else if (x >= BLACK_KING) bk = x - BLACK_KING;
  }
  return kingTransform(features, 0, wk) + 65536 * kingTransform(features, 1, bk);
}

/**
 * Position i's columns from the side to move's view into `cs` and the other side's into `cn`
 * (each feature's column, then its factor column when there is one); returns how many.
 */
export function positionColumns(set: NnueSet, i: number, features: NnueFeatures, cs: Int32Array, cn: Int32Array): number {
  const kings = positionKings(set, i, features),
    kW = kings & 0xffff,
    kB = kings >>> 16,
    fb = factorBase(features),
    stm = set.stm[i],
    n = set.nFeat[i],
    base = i * 32;
  let c = 0;
  for (let f = 0; f < n; f++) {
    const x = set.feat[base + f],
      mx = mirrorFeature(x),
      w = transformFeature(x, kW),
      m = transformFeature(mx, kB);
    cs[c] = stm === 0 ? w : m;
    cn[c++] = stm === 0 ? m : w;
    if (fb >= 0) {
      cs[c] = fb + (stm === 0 ? x : mx);
      cn[c++] = fb + (stm === 0 ? mx : x);
    }
  }
  return c;
}

/**
 * How a position's label is formed: λ (the game result's weight) by output bucket, and K
 * (centipawns per unit before σ). λ may grow as pieces come off: our search scores overrate
 * endings that the results show drawn (docs/nnue.md), and an ending's result depends more on
 * the position than an opening's does.
 */
export interface Labels {
  /** λ of each output bucket (MAX_LABEL_BUCKETS entries; buckets beyond the network's are unused). */
  resultWeight: Float64Array;
  wdlScale: number;
}

/** The most output buckets a label set describes (outputBucket's limit: 2..32 pieces). */
export const MAX_LABEL_BUCKETS = 32;

/**
 * Labels with λ `resultWeight` in the top bucket (the most pieces) falling or rising linearly to
 * `endgameResultWeight` in bucket 0 over `buckets` buckets; without it, λ is the same everywhere.
 */
export function labelsOf(resultWeight: number, wdlScale = SCALE, endgameResultWeight = resultWeight, buckets = 1): Labels {
  const byBucket = new Float64Array(MAX_LABEL_BUCKETS).fill(resultWeight);
  for (let b = 0; b < buckets - 1; b++) byBucket[b] = endgameResultWeight + ((resultWeight - endgameResultWeight) * b) / (buckets - 1);
  return { resultWeight: byBucket, wdlScale };
}

export function target(set: NnueSet, i: number, labels: Labels): number {
  const l = labels.resultWeight[set.bucket[i]];
  return l * set.result[i] + (1 - l) * sigmoid(set.score[i] / labels.wdlScale);
}

/** Forward (and, with grads, backward) pass over positions idx[from, to); returns the summed squared error. */
export interface NnuePass {
  run(set: NnueSet, idx: Uint32Array, from: number, to: number, labels: Labels, grads: FloatNetwork | null): number;
}

/** The kernels the pass runs on: the WebAssembly SIMD kernel (pass-wasm.ts) or this reference. */
export type PassKernel = 'wasm' | 'ts';
export const PASS_KERNELS: readonly PassKernel[] = ['wasm', 'ts'];

/** The TypeScript reference pass; gradients are added to `grads`. */
export class Pass implements NnuePass {
  private readonly accS: Float32Array;
  private readonly accN: Float32Array;
  private readonly dS: Float32Array;
  private readonly dN: Float32Array;
  private readonly colS = new Int32Array(64);
  private readonly colN = new Int32Array(64);
  constructor(readonly net: FloatNetwork) {
    this.accS = new Float32Array(net.hidden);
    this.accN = new Float32Array(net.hidden);
    this.dS = new Float32Array(net.hidden);
    this.dN = new Float32Array(net.hidden);
  }

  run(set: NnueSet, idx: Uint32Array, from: number, to: number, labels: Labels, grads: FloatNetwork | null): number {
    const { hidden: H, w1, b1, w2, b2 } = this.net,
      classical = this.net.kind === 'residual' ? set.classical : undefined,
      accS = this.accS,
      accN = this.accN,
      dS = this.dS,
      dN = this.dN,
      colS = this.colS,
      colN = this.colN,
      features = this.net.features,
      squared = this.net.activation === 'screlu',
      // The output in units of K: σ(out·perK) is the predicted expected result.
      perK = SCALE / labels.wdlScale;
    let loss = 0;
    for (let k = from; k < to; k++) {
      const i = idx[k],
        nc = positionColumns(set, i, features, colS, colN),
        b = set.bucket[i];
      accS.set(b1);
      accN.set(b1);
      for (let c = 0; c < nc; c++) {
        const cs = colS[c] * H,
          cn = colN[c] * H;
        for (let j = 0; j < H; j++) {
          accS[j] += w1[cs + j];
          accN[j] += w1[cn + j];
        }
      }
      const wo = b * 2 * H,
        NB = this.net.buckets,
        psqt = this.net.psqt;
      let out = classical === undefined ? b2[b] : b2[b] + classical[i] / SCALE;
      for (let c = 0; c < nc; c++) out += 0.5 * (psqt[colS[c] * NB + b] - psqt[colN[c] * NB + b]);
      for (let j = 0; j < H; j++) {
        const s = accS[j] < 0 ? 0 : accS[j] > 1 ? 1 : accS[j],
          o = accN[j] < 0 ? 0 : accN[j] > 1 ? 1 : accN[j];
        out += squared ? s * s * w2[wo + j] + o * o * w2[wo + H + j] : s * w2[wo + j] + o * w2[wo + H + j];
      }
      const p = sigmoid(out * perK),
        t = target(set, i, labels),
        err = p - t;
      loss += err * err;
      if (grads === null) continue;
      const g = 2 * err * p * (1 - p) * perK;
      const gw1 = grads.w1,
        gw2 = grads.w2;
      grads.b2[b] += g;
      for (let j = 0; j < H; j++) {
        const s = accS[j],
          o = accN[j],
          cs = s < 0 ? 0 : s > 1 ? 1 : s,
          co = o < 0 ? 0 : o > 1 ? 1 : o;
        // d act / d acc: 1 (clipped ReLU) or 2·acc (squared) inside (0, 1), 0 outside.
        gw2[wo + j] += g * (squared ? cs * cs : cs);
        gw2[wo + H + j] += g * (squared ? co * co : co);
        const ds = s > 0 && s < 1 ? g * w2[wo + j] * (squared ? 2 * s : 1) : 0,
          dn = o > 0 && o < 1 ? g * w2[wo + H + j] * (squared ? 2 * o : 1) : 0;
        dS[j] = ds;
        dN[j] = dn;
        grads.b1[j] += ds + dn;
      }
      for (let c = 0; c < nc; c++) {
        const fs = colS[c],
          fn = colN[c],
          cs = fs * H,
          cn = fn * H;
        for (let j = 0; j < H; j++) {
          gw1[cs + j] += dS[j];
          gw1[cn + j] += dN[j];
        }
        grads.psqt[fs * NB + b] += 0.5 * g;
        grads.psqt[fn * NB + b] -= 0.5 * g;
      }
    }
    return loss;
  }
}
