/**
 * The two network layouts and how a weight array is laid out.
 *
 * A network answers one target square. Its hidden neurons are byte-neurons: neuron i XORs one
 * input byte with its weight byte and fires when the popcount is below 4 (the XNOR "dot product"
 * of the seed, with the sign folded into the comparison). The output fires when more than 16
 * neurons fire.
 *
 * 16x32x1: input = the 16-bit gathered word; neuron i reads byte (i & 1) of it.
 * 64x64x1: input = the masked 64-bit occupancy; neuron i reads byte (i & 7), i.e. rank i & 7.
 *
 * Weights of all networks are one byte array: for piece (rook, bishop), square 0..63, target in
 * canonical order (see layout.ts), `neurons` bytes.
 */
import { NETWORK_BASE, NETWORK_COUNT } from './layout.js';

export type LayoutName = '16x32x1' | '64x64x1' | '16x8x1';

export interface NetworkLayout {
  readonly id: number;
  readonly name: LayoutName;
  readonly neurons: number;
  /** Input bytes (groups); neuron i reads byte i % groups. 1: every neuron reads the target's own line byte. */
  readonly groups: number;
  /** True when every network has its own output threshold (a byte block after the weights). */
  readonly thresholds: boolean;
}

export const LAYOUT_16 = { id: 1, name: '16x32x1', neurons: 32, groups: 2, thresholds: false } as const satisfies NetworkLayout;
export const LAYOUT_64 = { id: 2, name: '64x64x1', neurons: 64, groups: 8, thresholds: false } as const satisfies NetworkLayout;
/**
 * 16x8x1 (docs/bnn.md): 8 neurons, all reading the target's own line byte; fires when more than
 * its own threshold T of them fire. Known to the file format and the WASM kernel; not yet
 * trained, so not in NETWORK_LAYOUTS (train/verify --layout all).
 */
export const LAYOUT_8 = { id: 3, name: '16x8x1', neurons: 8, groups: 1, thresholds: true } as const satisfies NetworkLayout;
export const NETWORK_LAYOUTS: readonly NetworkLayout[] = [LAYOUT_16, LAYOUT_64];

export function layoutByName(name: string): NetworkLayout | undefined {
  return NETWORK_LAYOUTS.find((l) => l.name === name);
}
export function layoutById(id: number): NetworkLayout | undefined {
  return [...NETWORK_LAYOUTS, LAYOUT_8].find((l) => l.id === id);
}

/** Output threshold: the network fires when more than this many neurons fire. */
export const OUTPUT_THRESHOLD = 16;
/** A neuron fires when popcount(input byte ^ weight) is below this. */
export const NEURON_THRESHOLD = 4;

/** Byte offset of the weights of network `index` of (piece, square). */
export function networkOffset(layout: NetworkLayout, piece: number, square: number, index: number): number {
  return (NETWORK_BASE[piece][square] + index) * layout.neurons;
}

/** Payload bytes: every network's weights, then (16x8x1) every network's threshold. */
export function weightBytes(layout: NetworkLayout): number {
  return NETWORK_COUNT * (layout.neurons + (layout.thresholds ? 1 : 0));
}

/** popcount of a byte; a table because it is on every hot path of the TS reference. */
export const POPCOUNT8 = (() => {
  const t = new Uint8Array(256);
  for (let i = 1; i < 256; i++) t[i] = (i & 1) + t[i >> 1];
  return t;
})();
