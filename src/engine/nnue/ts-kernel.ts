/** The TypeScript reference of the NNUE kernel: plain loops over Int16Array, wrapping like i16 lanes. */
import type { NnueKernel } from './kernel.js';
import { NNUE_SLOTS } from './kernel.js';
import { checkNetworkShape, type NnueNetwork } from './network.js';

export class TsNnueKernel implements NnueKernel {
  readonly name = 'ts';
  readonly hidden: number;
  readonly delta = new Int32Array(8);
  readonly list = new Int32Array(32);
  private readonly acc: Int16Array;
  /** The piece-square sums, [slot][persp][bucket]. */
  private readonly psq: Int32Array;

  /** The squared activation (decided once: evaluate() runs at every node). */
  private readonly squared: boolean;

  constructor(
    private readonly net: NnueNetwork,
    slots = NNUE_SLOTS,
  ) {
    // The network's own arrays are read in place: W1 and psqt have its feature set's rows.
    checkNetworkShape(net);
    this.hidden = net.hidden;
    this.squared = net.activation === 'screlu';
    this.acc = new Int16Array(slots * 2 * net.hidden);
    this.psq = new Int32Array(slots * 2 * net.buckets);
  }

  refresh(slot: number, persp: number, n: number): void {
    const H = this.hidden,
      acc = this.acc,
      w1 = this.net.w1,
      d = (slot * 2 + persp) * H;
    const B = this.net.buckets,
      psq = this.psq,
      psqt = this.net.psqt,
      q = (slot * 2 + persp) * B;
    acc.set(this.net.b1, d);
    psq.fill(0, q, q + B);
    for (let k = 0; k < n; k++) {
      const f = this.list[k],
        c = f * H;
      for (let i = 0; i < H; i++) acc[d + i] += w1[c + i];
      for (let b = 0; b < B; b++) psq[q + b] += psqt[f * B + b];
    }
  }

  update(dst: number, src: number, nAdd: number, nSub: number): void {
    const H = this.hidden,
      acc = this.acc,
      w1 = this.net.w1,
      delta = this.delta;
    for (let p = 0; p < 2; p++) {
      const d = (dst * 2 + p) * H,
        s = (src * 2 + p) * H,
        o = p * 4;
      const a0 = delta[o] * H,
        a1 = delta[o + 1] * H,
        s0 = delta[o + 2] * H,
        s1 = delta[o + 3] * H;
      for (let i = 0; i < H; i++) {
        let x = acc[s + i] + w1[a0 + i] - w1[s0 + i];
        if (nAdd === 2) x += w1[a1 + i];
        if (nSub === 2) x -= w1[s1 + i];
        acc[d + i] = x;
      }
      const B = this.net.buckets,
        psq = this.psq,
        psqt = this.net.psqt,
        qd = (dst * 2 + p) * B,
        qs = (src * 2 + p) * B;
      for (let b = 0; b < B; b++) {
        let x = psq[qs + b] + psqt[delta[o] * B + b] - psqt[delta[o + 2] * B + b];
        if (nAdd === 2) x += psqt[delta[o + 1] * B + b];
        if (nSub === 2) x -= psqt[delta[o + 3] * B + b];
        psq[qd + b] = x;
      }
    }
  }

  copy(dst: number, src: number): void {
    const n = 2 * this.hidden,
      m = 2 * this.net.buckets;
    this.acc.copyWithin(dst * n, src * n, src * n + n);
    this.psq.copyWithin(dst * m, src * m, src * m + m);
  }

  evaluate(slot: number, stm: number, bucket: number): number {
    const H = this.hidden,
      acc = this.acc,
      w2 = this.net.w2,
      qa = this.net.qa;
    const us = (slot * 2 + stm) * H,
      them = (slot * 2 + (stm ^ 1)) * H,
      w = bucket * 2 * H;
    let sum = 0;
    if (this.squared) {
      // Exact in doubles: |sum| ≤ 2H·QA²·|w| ≤ 2H·32767·QA < 2^52 (H ≤ 4096, QA·|w| ≤ 32767:
      // arithmeticProblem), so it is an integer, and below 2^52 its quotient by QA truncates to
      // the integer quotient, as the WebAssembly kernel's int64 division does.
      for (let i = 0; i < H; i++) {
        const x = acc[us + i],
          y = acc[them + i],
          a = x < 0 ? 0 : x > qa ? qa : x,
          b = y < 0 ? 0 : y > qa ? qa : y;
        sum += a * w2[w + i] * a + b * w2[w + H + i] * b;
      }
      sum = Math.trunc(sum / qa);
    } else {
      for (let i = 0; i < H; i++) {
        const a = acc[us + i],
          b = acc[them + i];
        sum += (a < 0 ? 0 : a > qa ? qa : a) * w2[w + i] + (b < 0 ? 0 : b > qa ? qa : b) * w2[w + H + i];
      }
    }
    const B = this.net.buckets,
      psq = this.psq;
    sum = (sum + this.net.b2[bucket] + (((psq[(slot * 2 + stm) * B + bucket] - psq[(slot * 2 + (stm ^ 1)) * B + bucket]) / 2) | 0)) | 0;
    // Exact: |sum·scale| < 2^53, and the quotient's truncation equals i64.div_s (| 0 never yields -0).
    return Math.trunc((sum * this.net.scale) / (qa * this.net.qb)) | 0;
  }

  accumulator(slot: number, persp: number): Int16Array {
    const d = (slot * 2 + persp) * this.hidden;
    return this.acc.slice(d, d + this.hidden);
  }
}
