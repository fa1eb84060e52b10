/**
 * The BNN weights in the browser: fetched from next to the page (the build copies them there)
 * and decoded with src/bnn's pure decoder. The network panel shows them; the engine worker hands
 * them to the backend registry as the BNN backend's loader.
 */
import type { SliderAttacks } from '../src/core/slider-attacks.js';
import { referenceSliders } from '../src/bnn/infer.js';
import { type LayoutName, type NetworkLayout, layoutByName } from '../src/bnn/network.js';
import { decodeWeights, isComplete } from '../src/bnn/weights.js';

export interface BnnWeights {
  layout: NetworkLayout;
  /** The payload: weight bytes (and for 16x8x1 the thresholds after them). */
  weights: Uint8Array;
  /** False for a partial training run, whose untrained networks are zero: fine to look at, wrong to play with. */
  complete: boolean;
}

/** Reads a BNN weights file (src/bnn/weights.ts format: header, checksum, payload) that must hold `layout`. */
export function parseBnnWeights(bytes: Uint8Array, url: string, layout: LayoutName = '16x32x1'): BnnWeights {
  const file = decodeWeights(bytes, url); // throws BnnWeightsError naming the problem
  if (file.layout.name !== layout) throw new Error(`${url}: layout ${file.layout.name}; expected ${layout}`);
  return { layout: file.layout, weights: file.weights, complete: isComplete(file) };
}

export async function fetchBnnWeights(url: string, layout: LayoutName = '16x32x1'): Promise<BnnWeights> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return parseBnnWeights(new Uint8Array(await res.arrayBuffer()), url, layout);
}

/** A BNN backend's slider attacks in the page: fetched weights, TypeScript reference inference. */
export async function fetchBnnSliders(url: string | null, layout: LayoutName = '16x32x1'): Promise<SliderAttacks> {
  if (!url) throw new Error(`the neural backend needs the BNN weights (${layout}), which this build does not include`);
  const { weights, complete } = await fetchBnnWeights(url, layout);
  if (!complete) throw new Error(`${url} is from a partial training run; the neural backend needs every network trained`);
  return referenceSliders(layoutByName(layout)!, weights);
}
