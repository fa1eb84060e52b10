/**
 * The BNN slider backend for the core's move generator: loads the shipped weights (checksum
 * and size checked), and answers rook/bishop attacks by network inference, through the
 * WebAssembly SIMD kernel when it has been built, else through the TypeScript reference.
 * Everything is synchronous so the core can call it at start-up.
 */
import { join } from 'node:path';
import type { SliderAttacks } from '../core/slider-attacks.js';
import { layoutByName } from './network.js';
import { readWeightsFile, weightsFileName, isComplete, BnnWeightsError } from './weights.js';
import { referenceSliders } from './infer.js';
import { loadWasmKernel } from './wasm-kernel.js';
import { WEIGHTS_DIR } from './paths.js';

export { BnnWeightsError } from './weights.js';

export interface BnnOptions {
  /** Network layout; default '16x32x1'. */
  layout?: '16x32x1' | '64x64x1';
  /** 'wasm' (default; falls back to 'ts' when the kernel is not built unless `require` is set), or 'ts'. */
  engine?: 'wasm' | 'ts';
  /** Fail instead of falling back when the WASM kernel is missing. */
  requireWasm?: boolean;
  /** Directory holding bnn-<layout>.bin; default the package's weights/. */
  weightsDir?: string;
  /** Explicit weights file (overrides weightsDir). */
  file?: string;
}

/** Loads the BNN sliders; throws BnnWeightsError when the weights file is missing, corrupt or partial. */
export function loadBnnSliders(options: BnnOptions = {}): SliderAttacks {
  const layout = layoutByName(options.layout ?? '16x32x1');
  if (!layout) throw new Error(`unknown BNN layout '${options.layout}'`);
  const file = options.file ?? join(options.weightsDir ?? WEIGHTS_DIR, weightsFileName(layout));
  const w = readWeightsFile(file);
  if (w.layout.id !== layout.id) throw new BnnWeightsError(file, `holds layout ${w.layout.name}, expected ${layout.name}`);
  if (!isComplete(w)) throw new BnnWeightsError(file, 'partial training run: not every square and piece has networks');
  if (options.engine !== 'ts') {
    const kernel = loadWasmKernel(w);
    if (kernel) return kernel.sliders;
    if (options.requireWasm) throw new Error('BNN WebAssembly kernel not built: run npm run build:wasm');
  }
  return referenceSliders(layout, w.weights);
}
