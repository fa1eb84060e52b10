/**
 * Networks whose neurons all read the target's own line byte (16x8x1, and the minimal-size
 * study): the problem such a network solves, an exhaustive search for k <= 3 neurons, and
 * annealing for any k.
 *
 * A target's answer depends only on its own line's byte (layout.ts), so the problem is just
 * (relevant bits of that byte, between bits): the byte takes every subset of the relevant bits
 * (<= 64 values), and the target is attacked iff no between bit is set. A network of k seed
 * neurons (fires when popcount(byte ^ w) < 4) fires when more than T of them fire; T is derived,
 * not searched: the largest firing count of a blocked value (0 when no value is blocked), valid
 * when every clear value has a larger count. Exactness on these values is exactness on every
 * relevant occupancy, since the other byte does not enter.
 */
import { SQUARE_LAYOUTS } from './layout.js';
import { POPCOUNT8, NEURON_THRESHOLD } from './network.js';
import { Sfc32 } from '../core/rng.js';

export interface OwnByteProblem {
  /** Relevant bits of the target's line byte. */
  readonly mask: number;
  /** Between bits (a subset of mask): the target is attacked iff none is set. */
  readonly between: number;
}

/** The problem of network `target` of (piece, square). */
export function ownByteProblem(piece: number, square: number, target: number): OwnByteProblem {
  const lay = SQUARE_LAYOUTS[piece][square];
  const t = lay.targets[target];
  const shift = t.bit < 8 ? 0 : 8;
  return { mask: (lay.inputMask >>> shift) & 0xff, between: (t.between >>> shift) & 0xff };
}

/** A problem as one number (mask | between << 8), for caching. */
export const problemKey = (p: OwnByteProblem): number => p.mask | (p.between << 8);

const MAX_VALUES = 64;
const MAX_NEURONS = 8;
/** Annealing schedule in units of misclassified byte values (<= 64): near-greedy at the end. */
const T_START = 1.5;
const T_END = 0.05;

export interface AnnealStats {
  moves: number;
  restarts: number;
  solved: boolean;
}

/** Scratch state for one problem at a time; nothing in the hot loop allocates. */
export class OwnByteSolver {
  private readonly values = new Uint8Array(MAX_VALUES);
  private readonly clear = new Uint8Array(MAX_VALUES);
  private readonly counts = new Uint8Array(MAX_VALUES);
  private readonly histClear = new Int32Array(MAX_NEURONS + 1);
  private readonly histBlocked = new Int32Array(MAX_NEURONS + 1);
  private readonly w = new Uint8Array(MAX_NEURONS);
  private n = 0;

  setProblem(p: OwnByteProblem): void {
    let x = 0,
      n = 0;
    do {
      this.values[n] = x;
      this.clear[n] = (x & p.between) === 0 ? 1 : 0;
      n++;
      x = (x - p.mask) & p.mask;
    } while (x !== 0);
    this.n = n;
  }

  /** Number of byte values of the problem. */
  get valueCount(): number {
    return this.n;
  }

  /** T for weights w[0..k), or -1 when no threshold makes the network exact. */
  threshold(w: Uint8Array, k: number): number {
    let maxBlocked = 0,
      minClear = MAX_NEURONS + 1;
    for (let v = 0; v < this.n; v++) {
      let c = 0;
      for (let i = 0; i < k; i++) c += POPCOUNT8[this.values[v] ^ w[i]] < NEURON_THRESHOLD ? 1 : 0;
      if (this.clear[v]) minClear = Math.min(minClear, c);
      else maxBlocked = Math.max(maxBlocked, c);
    }
    return minClear > maxBlocked ? maxBlocked : -1;
  }

  /**
   * Exhaustive search for an exact network of exactly k (1..3) neurons. Weights are
   * deduplicated by their firing vector over the byte values (the smallest weight stands for
   * its vector); with k neurons the output "more than T fire" is one of the k level sets
   * (at least 1, 2, ... k fire), so the network is exact iff one level set is the clear set.
   * Writes the weights to out[0..k) and returns true, or returns false: then no exact network
   * of k neurons exists.
   */
  exhaustive(k: number, out: Uint8Array): boolean {
    if (k < 1 || k > 3) throw new Error(`exhaustive search takes 1..3 neurons, got ${k}`);
    // Firing vectors as two 32-bit halves over the value indices.
    const seen = new Map<string, number>();
    const lo: number[] = [],
      hi: number[] = [],
      weight: number[] = [];
    let pLo = 0,
      pHi = 0;
    for (let v = 0; v < this.n; v++) {
      if (!this.clear[v]) continue;
      if (v < 32) pLo |= 1 << v;
      else pHi |= 1 << (v - 32);
    }
    for (let w = 0; w < 256; w++) {
      let a = 0,
        b = 0;
      for (let v = 0; v < this.n; v++) {
        if (POPCOUNT8[this.values[v] ^ w] >= NEURON_THRESHOLD) continue;
        if (v < 32) a |= 1 << v;
        else b |= 1 << (v - 32);
      }
      if ((a | b) === 0) continue; // never fires: adds nothing to any count
      const key = `${a}:${b}`;
      if (seen.has(key)) continue;
      seen.set(key, w);
      lo.push(a);
      hi.push(b);
      weight.push(w);
    }
    const d = lo.length;
    if (k === 1) {
      for (let i = 0; i < d; i++) {
        if (lo[i] === pLo && hi[i] === pHi) return found(out, weight[i]);
      }
      return false;
    }
    if (k === 2) {
      for (let i = 0; i < d; i++) {
        for (let j = i + 1; j < d; j++) {
          const orMatch = (lo[i] | lo[j]) === pLo && (hi[i] | hi[j]) === pHi;
          const andMatch = (lo[i] & lo[j]) === pLo && (hi[i] & hi[j]) === pHi;
          if (orMatch || andMatch) return found(out, weight[i], weight[j]);
        }
      }
      return false;
    }
    for (let i = 0; i < d; i++) {
      for (let j = i + 1; j < d; j++) {
        const orLo = lo[i] | lo[j],
          orHi = hi[i] | hi[j],
          andLo = lo[i] & lo[j],
          andHi = hi[i] & hi[j];
        for (let m = j + 1; m < d; m++) {
          const a = lo[m],
            b = hi[m];
          // Level sets: at least one, at least two (majority), all three fire.
          if (
            ((orLo | a) === pLo && (orHi | b) === pHi) ||
            ((andLo | (orLo & a)) === pLo && (andHi | (orHi & b)) === pHi) ||
            ((andLo & a) === pLo && (andHi & b) === pHi)
          ) {
            return found(out, weight[i], weight[j], weight[m]);
          }
        }
      }
    }
    return false;
  }

  /** Misclassified values for the best T over the current counts (the annealing objective). */
  private error(k: number): number {
    const hc = this.histClear,
      hb = this.histBlocked;
    hc.fill(0);
    hb.fill(0);
    for (let v = 0; v < this.n; v++) {
      if (this.clear[v]) hc[this.counts[v]]++;
      else hb[this.counts[v]]++;
    }
    // T = 0: blocked values with a count above 0 and clear values with count 0 are wrong.
    let blockedAbove = 0;
    for (let c = 1; c <= k; c++) blockedAbove += hb[c];
    let clearAtOrBelow = hc[0];
    let best = blockedAbove + clearAtOrBelow;
    for (let t = 1; t <= k; t++) {
      blockedAbove -= hb[t];
      clearAtOrBelow += hc[t];
      best = Math.min(best, blockedAbove + clearAtOrBelow);
    }
    return best;
  }

  private recount(k: number): void {
    const w = this.w;
    for (let v = 0; v < this.n; v++) {
      let c = 0;
      for (let i = 0; i < k; i++) c += POPCOUNT8[this.values[v] ^ w[i]] < NEURON_THRESHOLD ? 1 : 0;
      this.counts[v] = c;
    }
  }

  private update(from: number, to: number): void {
    for (let v = 0; v < this.n; v++) {
      const x = this.values[v];
      this.counts[v] += (POPCOUNT8[x ^ to] < NEURON_THRESHOLD ? 1 : 0) - (POPCOUNT8[x ^ from] < NEURON_THRESHOLD ? 1 : 0);
    }
  }

  /**
   * Simulated annealing over the weight bits of k neurons, restarting from fresh random weights
   * until the network is exact or `maxRestarts` runs have failed. Writes the exact weights to
   * out[offset..offset + k) when solved (the last run's otherwise); deterministic for the stream.
   */
  anneal(k: number, rng: Sfc32, out: Uint8Array, offset: number, maxRestarts: number, movesPerRun = 4000): AnnealStats {
    if (k < 1 || k > MAX_NEURONS) throw new Error(`annealing takes 1..${MAX_NEURONS} neurons, got ${k}`);
    const w = this.w;
    const stats: AnnealStats = { moves: 0, restarts: 0, solved: false };
    const cool = Math.pow(T_END / T_START, 1 / movesPerRun);
    for (let run = 0; run < maxRestarts; run++) {
      for (let i = 0; i < k; i++) w[i] = rng.next() & 0xff;
      this.recount(k);
      let err = this.error(k);
      let temp = T_START;
      for (let m = 0; m < movesPerRun && err > 0; m++, temp *= cool) {
        const i = rng.next() % k;
        const r = rng.next();
        // Mostly single-bit flips (move or resize the Hamming ball); sometimes two bits.
        let flip = 1 << (r & 7);
        if (((r >>> 3) & 3) === 0) flip |= 1 << ((r >>> 5) & 7);
        const old = w[i],
          next = old ^ flip;
        w[i] = next;
        this.update(old, next);
        const e = this.error(k);
        stats.moves++;
        if (e <= err || rng.nextFloat() < Math.exp((err - e) / temp)) {
          err = e;
        } else {
          this.update(next, old);
          w[i] = old;
        }
      }
      if (err === 0) {
        stats.solved = true;
        break;
      }
      stats.restarts++;
    }
    out.set(w.subarray(0, k), offset);
    return stats;
  }
}

function found(out: Uint8Array, ...weights: number[]): true {
  out.set(weights, 0);
  return true;
}
