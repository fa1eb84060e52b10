/**
 * TypeScript reference inference: evaluates the networks neuron by neuron exactly as specified.
 * It is the readable definition the WebAssembly kernel is checked against, and a backend in its
 * own right.
 */
import type { SliderAttacks } from '../core/slider-attacks.js';
import { SQUARE_LAYOUTS, NETWORK_BASE, gatherInput, scatterOutput, type SquareLayout } from './layout.js';
import { type NetworkLayout, POPCOUNT8, NEURON_THRESHOLD, OUTPUT_THRESHOLD, LAYOUT_16, LAYOUT_8, thresholdOffset } from './network.js';

/** Output word of a 16x32x1 square: bit `target.bit` set when that target's network fires. */
export function infer16(lay: SquareLayout, weights: Uint8Array, word: number): number {
  const lo = word & 0xff,
    hi = (word >>> 8) & 0xff;
  const targets = lay.targets;
  let w = NETWORK_BASE[lay.piece][lay.square] * 32;
  let out = 0;
  for (let t = 0; t < targets.length; t++, w += 32) {
    let fired = 0;
    for (let i = 0; i < 32; i += 2) {
      fired += POPCOUNT8[lo ^ weights[w + i]] < NEURON_THRESHOLD ? 1 : 0;
      fired += POPCOUNT8[hi ^ weights[w + i + 1]] < NEURON_THRESHOLD ? 1 : 0;
    }
    if (fired > OUTPUT_THRESHOLD) out |= 1 << targets[t].bit;
  }
  return out;
}

/**
 * Output word of a 16x8x1 square: every network's 8 neurons read its target's own line byte,
 * and it fires when more than its own threshold T of them fire.
 */
export function infer8(lay: SquareLayout, weights: Uint8Array, word: number): number {
  const targets = lay.targets;
  let w = NETWORK_BASE[lay.piece][lay.square] * 8;
  let t8 = thresholdOffset(LAYOUT_8, lay.piece, lay.square, 0);
  let out = 0;
  for (let t = 0; t < targets.length; t++, w += 8, t8++) {
    const bit = targets[t].bit;
    const byte = (word >>> (bit & 8)) & 0xff; // bits 0..7: line A, the low byte; 8..15: line B
    let fired = 0;
    for (let i = 0; i < 8; i++) fired += POPCOUNT8[byte ^ weights[w + i]] < NEURON_THRESHOLD ? 1 : 0;
    if (fired > weights[t8]) out |= 1 << bit;
  }
  return out;
}

/** Output word of a 64x64x1 square from the masked occupancy halves. */
export function infer64(lay: SquareLayout, weights: Uint8Array, lo: number, hi: number): number {
  const targets = lay.targets;
  let w = NETWORK_BASE[lay.piece][lay.square] * 64;
  let out = 0;
  for (let t = 0; t < targets.length; t++, w += 64) {
    let fired = 0;
    for (let i = 0; i < 64; i += 8) {
      for (let k = 0; k < 4; k++) {
        fired += POPCOUNT8[((lo >>> (8 * k)) & 0xff) ^ weights[w + i + k]] < NEURON_THRESHOLD ? 1 : 0;
        fired += POPCOUNT8[((hi >>> (8 * k)) & 0xff) ^ weights[w + i + 4 + k]] < NEURON_THRESHOLD ? 1 : 0;
      }
    }
    if (fired > OUTPUT_THRESHOLD) out |= 1 << targets[t].bit;
  }
  return out;
}

/** Output word for one (piece, square, occupancy) under any layout. */
export function inferWord(layout: NetworkLayout, weights: Uint8Array, lay: SquareLayout, occLo: number, occHi: number): number {
  if (layout.id === LAYOUT_16.id) return infer16(lay, weights, gatherInput(lay, occLo, occHi));
  if (layout.id === LAYOUT_8.id) return infer8(lay, weights, gatherInput(lay, occLo, occHi));
  return infer64(lay, weights, occLo & lay.maskLo, occHi & lay.maskHi);
}

/** The TS reference as a SliderAttacks provider. */
export function referenceSliders(layout: NetworkLayout, weights: Uint8Array): SliderAttacks {
  const rooks = SQUARE_LAYOUTS[0],
    bishops = SQUARE_LAYOUTS[1];
  return {
    name: `bnn-ts-${layout.name}`,
    rook(sq, occLo, occHi, out) {
      const lay = rooks[sq];
      scatterOutput(lay, inferWord(layout, weights, lay, occLo, occHi), out);
    },
    bishop(sq, occLo, occHi, out) {
      const lay = bishops[sq];
      scatterOutput(lay, inferWord(layout, weights, lay, occLo, occHi), out);
    },
  };
}
