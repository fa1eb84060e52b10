/**
 * Trains one target network by simulated annealing on the exact error count.
 *
 * The sample set (every relevant occupancy) is a product of per-byte sets: neuron i only sees
 * input byte g = i % groups, so the firing count of a sample is a sum of per-byte counts c_g(x_g),
 * and the label is "every byte holds none of the between squares". The full error over all
 * samples therefore follows from per-byte histograms of c_g split by clear/blocked, convolved:
 * a move (flip a weight bit) costs one pass over that byte's ≤64 values plus a tiny convolution,
 * instead of a pass over up to 4096 samples.
 */
import { SQUARE_LAYOUTS } from './layout.js';
import { type NetworkLayout, POPCOUNT8, NEURON_THRESHOLD, OUTPUT_THRESHOLD } from './network.js';
import { Sfc32, mix32 } from '../core/rng.js';

export interface TrainStats {
  moves: number;
  restarts: number;
  solved: boolean;
}

const MAX_GROUPS = 8;
/** Annealing schedule, tuned on the 16x32x1 rook set: start near-greedy, end greedy. */
const T0_PER_SAMPLE = 0.0002;
const T_END = 0.05;
const MAX_VALUES = 64; // a byte of relevant occupancy has at most 6 varying bits
const MAX_SUM = 65;

/**
 * Every network's stream derives only from (seed, layout, piece, square, target), never from
 * thread scheduling, so a parallel training run is reproducible.
 */
export function networkSeed(seed: number, layoutId: number, piece: number, square: number, target: number): number {
  let h = mix32(seed);
  h = mix32(h ^ layoutId);
  h = mix32(h ^ (piece << 8) ^ square);
  return mix32(h ^ target);
}

/** Scratch state reused across networks so the hot loop never allocates. */
export class NetworkTrainer {
  private readonly values: Uint8Array[] = []; // per group: the byte values that occur
  private readonly clear: Uint8Array[] = []; // per group: 1 if that value has no between bit
  private readonly counts: Uint8Array[] = []; // per group: firing neurons of the group per value
  private readonly nValues = new Int32Array(MAX_GROUPS);
  private readonly convAll = new Float64Array(MAX_SUM);
  private readonly convClear = new Float64Array(MAX_SUM);
  private readonly tmpAll = new Float64Array(MAX_SUM);
  private readonly tmpClear = new Float64Array(MAX_SUM);
  private readonly hAll = new Float64Array(17);
  private readonly hClear = new Float64Array(17);
  private readonly h2All = new Int32Array(17);
  private readonly h2Clear = new Int32Array(17);
  private readonly p2All = new Int32Array(17);
  private readonly p2Clear = new Int32Array(17);
  private readonly w: Uint8Array;
  private readonly best: Uint8Array;
  private groups = 0;
  private neurons = 0;
  samples = 0;

  constructor(maxNeurons = 64) {
    for (let g = 0; g < MAX_GROUPS; g++) {
      this.values.push(new Uint8Array(MAX_VALUES));
      this.clear.push(new Uint8Array(MAX_VALUES));
      this.counts.push(new Uint8Array(MAX_VALUES));
    }
    this.w = new Uint8Array(maxNeurons);
    this.best = new Uint8Array(maxNeurons);
  }

  /** Sets up the sample set of one target network. */
  private setup(layout: NetworkLayout, piece: number, square: number, target: number): void {
    const lay = SQUARE_LAYOUTS[piece][square];
    const t = lay.targets[target];
    this.groups = layout.groups;
    this.neurons = layout.neurons;
    this.samples = 1;
    for (let g = 0; g < this.groups; g++) {
      let mask: number, between: number;
      if (layout.groups === 2) {
        mask = (lay.inputMask >>> (8 * g)) & 0xff;
        between = (t.between >>> (8 * g)) & 0xff;
      } else {
        const half = g < 4 ? 0 : 1,
          shift = 8 * (g & 3);
        mask = ((half ? lay.maskHi : lay.maskLo) >>> shift) & 0xff;
        between = ((half ? t.betweenHi : t.betweenLo) >>> shift) & 0xff;
      }
      let x = 0,
        n = 0;
      do {
        this.values[g][n] = x;
        this.clear[g][n] = (x & between) === 0 ? 1 : 0;
        n++;
        x = (x - mask) & mask;
      } while (x !== 0);
      this.nValues[g] = n;
      this.samples *= n;
    }
  }

  private recount(g: number): void {
    const vals = this.values[g],
      cnt = this.counts[g],
      n = this.nValues[g];
    const w = this.w,
      step = this.groups,
      neurons = this.neurons;
    for (let k = 0; k < n; k++) {
      const x = vals[k];
      let c = 0;
      for (let i = g; i < neurons; i += step) c += POPCOUNT8[x ^ w[i]] < NEURON_THRESHOLD ? 1 : 0;
      cnt[k] = c;
    }
  }

  /** Applies a change of neuron i's weight from `from` to `to` to its group's counts. */
  private update(i: number, from: number, to: number): void {
    const g = i % this.groups;
    const vals = this.values[g],
      cnt = this.counts[g],
      n = this.nValues[g];
    for (let k = 0; k < n; k++) {
      const x = vals[k];
      cnt[k] += (POPCOUNT8[x ^ to] < NEURON_THRESHOLD ? 1 : 0) - (POPCOUNT8[x ^ from] < NEURON_THRESHOLD ? 1 : 0);
    }
  }

  /** error() for two groups: prefix sums of the second group's histogram instead of a convolution. */
  private error2(): number {
    const hA = this.h2All,
      hC = this.h2Clear,
      pA = this.p2All,
      pC = this.p2Clear;
    hA.fill(0);
    hC.fill(0);
    let cnt = this.counts[1],
      cl = this.clear[1],
      n = this.nValues[1];
    for (let k = 0; k < n; k++) {
      hA[cnt[k]]++;
      if (cl[k]) hC[cnt[k]]++;
    }
    let sa = 0,
      sc = 0;
    for (let c = 0; c <= OUTPUT_THRESHOLD; c++) {
      sa += hA[c];
      sc += hC[c];
      pA[c] = sa;
      pC[c] = sc;
    }
    const totA = sa,
      totC = sc; // group 1 has at most 16 neurons, so counts never exceed 16
    cnt = this.counts[0];
    cl = this.clear[0];
    n = this.nValues[0];
    let err = 0;
    for (let k = 0; k < n; k++) {
      const room = OUTPUT_THRESHOLD - cnt[k]; // partner counts <= room keep the sum <= 16
      const leA = pA[room],
        leC = pC[room];
      if (cl[k]) err += leC + (totA - leA) - (totC - leC);
      else err += totA - leA;
    }
    return err;
  }

  /** Exact number of misclassified samples, from the per-group histograms. */
  private error(): number {
    if (this.groups === 2) return this.error2();
    const all = this.convAll,
      clr = this.convClear;
    all.fill(0);
    clr.fill(0);
    all[0] = 1;
    clr[0] = 1;
    let top = 0;
    for (let g = 0; g < this.groups; g++) {
      const hA = this.hAll,
        hC = this.hClear;
      hA.fill(0);
      hC.fill(0);
      const cnt = this.counts[g],
        cl = this.clear[g],
        n = this.nValues[g];
      let hiCount = 0;
      for (let k = 0; k < n; k++) {
        const c = cnt[k];
        hA[c]++;
        if (cl[k]) hC[c]++;
        if (c > hiCount) hiCount = c;
      }
      const tA = this.tmpAll,
        tC = this.tmpClear;
      for (let s = 0; s <= top + hiCount; s++) {
        tA[s] = 0;
        tC[s] = 0;
      }
      for (let s = 0; s <= top; s++) {
        const a = all[s],
          b = clr[s];
        if (a === 0) continue;
        for (let c = 0; c <= hiCount; c++) {
          tA[s + c] += a * hA[c];
          tC[s + c] += b * hC[c];
        }
      }
      top += hiCount;
      for (let s = 0; s <= top; s++) {
        all[s] = tA[s];
        clr[s] = tC[s];
      }
    }
    let err = 0;
    for (let s = 0; s <= top; s++) err += s > OUTPUT_THRESHOLD ? all[s] - clr[s] : clr[s];
    return err;
  }

  /**
   * Anneals the weights of one network; writes the best weights found to out[offset..].
   * Deterministic for (seed, layout, piece, square, target).
   */
  train(
    layout: NetworkLayout,
    piece: number,
    square: number,
    target: number,
    seed: number,
    out: Uint8Array,
    offset: number,
    maxRestarts = 1000,
  ): TrainStats {
    this.setup(layout, piece, square, target);
    const rng = new Sfc32(networkSeed(seed, layout.id, piece, square, target));
    const neurons = this.neurons,
      groups = this.groups,
      w = this.w;
    const stats: TrainStats = { moves: 0, restarts: 0, solved: false };
    let bestErr = Infinity;
    const movesPerRun = 20000;
    for (let run = 0; run < maxRestarts; run++) {
      for (let i = 0; i < neurons; i++) w[i] = rng.next() & 0xff;
      for (let g = 0; g < groups; g++) this.recount(g);
      let err = this.error();
      // Temperature in units of the error count, relative to the sample count; geometric cooling.
      let temp = Math.max(0.5, this.samples * T0_PER_SAMPLE);
      const cool = Math.pow(T_END / temp, 1 / movesPerRun);
      for (let m = 0; m < movesPerRun && err > 0; m++, temp *= cool) {
        const i = rng.next() % neurons;
        const old = w[i];
        const r = rng.next();
        // Mostly single-bit flips; sometimes two bits, which moves a ball without resizing it.
        let flip = 1 << (r & 7);
        if (((r >>> 3) & 3) === 0) flip |= 1 << ((r >>> 5) & 7);
        const next = old ^ flip;
        w[i] = next;
        this.update(i, old, next);
        const e = this.error();
        stats.moves++;
        if (e <= err || rng.nextFloat() < Math.exp((err - e) / temp)) {
          err = e;
        } else {
          this.update(i, next, old);
          w[i] = old;
        }
      }
      if (err < bestErr) {
        bestErr = err;
        this.best.set(w.subarray(0, neurons));
      }
      if (err === 0) {
        stats.solved = true;
        break;
      }
      stats.restarts++;
    }
    out.set(this.best.subarray(0, neurons), offset);
    return stats;
  }
}
