/**
 * TypeScript reference of the 16x8x1 layout (docs/bnn.md), neuron by neuron as specified: every
 * network has 8 byte-neurons, all reading the target's own line byte of the 16-bit input word
 * (the low byte for output bits 0..7, the high byte for 8..15); neuron i fires when
 * popcount(byte ^ w_i) < 4, and the network fires when more than its threshold T of them fire.
 * It is what the WebAssembly kernel's 16x8x1 entry points are checked against.
 */
import type { SliderAttacks } from '../core/slider-attacks.js';
import { SQUARE_LAYOUTS, NETWORK_BASE, gatherInput, scatterOutput, type SquareLayout } from './layout.js';
import { POPCOUNT8, NEURON_THRESHOLD, LAYOUT_8 } from './network.js';

/** The two parts of a 16x8x1 payload: 8 weight bytes per network, then one threshold byte per network (canonical order). */
export interface Net16x8x1 {
  readonly weights: Uint8Array;
  readonly thresholds: Uint8Array;
}

/** Output word of a 16x8x1 square: bit `target.bit` set when that target's network fires. */
export function infer16x8x1(lay: SquareLayout, net: Net16x8x1, word: number): number {
  const base = NETWORK_BASE[lay.piece][lay.square];
  const targets = lay.targets;
  let out = 0;
  for (let t = 0; t < targets.length; t++) {
    const bit = targets[t].bit;
    const byte = bit < 8 ? word & 0xff : (word >>> 8) & 0xff;
    const w = (base + t) * LAYOUT_8.neurons;
    let fired = 0;
    for (let i = 0; i < LAYOUT_8.neurons; i++) fired += POPCOUNT8[byte ^ net.weights[w + i]] < NEURON_THRESHOLD ? 1 : 0;
    if (fired > net.thresholds[base + t]) out |= 1 << bit;
  }
  return out;
}

/** The 16x8x1 reference as a SliderAttacks provider. */
export function reference16x8x1Sliders(net: Net16x8x1): SliderAttacks {
  const rooks = SQUARE_LAYOUTS[0],
    bishops = SQUARE_LAYOUTS[1];
  return {
    name: 'bnn-ts-16x8x1',
    rook(sq, occLo, occHi, out) {
      const lay = rooks[sq];
      scatterOutput(lay, infer16x8x1(lay, net, gatherInput(lay, occLo, occHi)), out);
    },
    bishop(sq, occLo, occHi, out) {
      const lay = bishops[sq];
      scatterOutput(lay, infer16x8x1(lay, net, gatherInput(lay, occLo, occHi)), out);
    },
  };
}

/** Splits a 16x8x1 payload (weights file body) into its weights and thresholds. */
export function split16x8x1(payload: Uint8Array): Net16x8x1 {
  const n = NETWORK_BASE[1][64] * LAYOUT_8.neurons;
  return { weights: payload.subarray(0, n), thresholds: payload.subarray(n) };
}
