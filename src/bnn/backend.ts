/**
 * The BNN slider backend for the core's move generator: loads the shipped weights (checksum
 * and size checked), and answers rook/bishop attacks by network inference, through the
 * WebAssembly SIMD kernel when it has been built, else through the TypeScript reference.
 * Which of the two answers is in `engine`, so a missing kernel never goes unnoticed.
 * Everything is synchronous so the core can call it at start-up.
 */
import { join } from 'node:path';
import type { SliderAttacks } from '../core/slider-attacks.js';
import { type LayoutName, layoutByName } from './network.js';
import { weightsFileName, isComplete, BnnWeightsError } from './weights.js';
import { readWeightsFile } from './weights-node.js';
import { referenceSliders } from './infer.js';
import { loadWasmKernel } from './wasm-kernel.js';
import { WASM_FILE, WEIGHTS_DIR } from './paths.js';

export { BnnWeightsError } from './weights.js';

/** The inference engine: the WebAssembly SIMD kernel or the TypeScript reference. */
export type BnnEngine = 'wasm' | 'ts';

export interface BnnOptions {
  /** Network layout; default '16x32x1'. */
  layout?: LayoutName;
  /** 'wasm' (default; falls back to 'ts' when the kernel is not built unless `requireWasm` is set), or 'ts'. */
  engine?: BnnEngine;
  /** Fail instead of falling back when the WASM kernel is missing. */
  requireWasm?: boolean;
  /** Directory holding bnn-<layout>.bin; default the package's weights/. */
  weightsDir?: string;
  /** Explicit weights file (overrides weightsDir). */
  file?: string;
  /** The compiled kernel; default the package's dist/bnn/bnn.wasm. */
  wasmFile?: string;
}

/** SliderAttacks answered by networks, saying which engine answers and why. */
export interface BnnSliders extends SliderAttacks {
  readonly engine: BnnEngine;
  readonly layout: string;
  /** One line for users: e.g. "WebAssembly kernel, 16x32x1" or why the TS reference runs. */
  readonly description: string;
}

/** Loads the BNN sliders; throws BnnWeightsError when the weights file is missing, corrupt or partial. */
export function loadBnnSliders(options: BnnOptions = {}): BnnSliders {
  const layout = layoutByName(options.layout ?? '16x32x1');
  if (!layout) throw new Error(`unknown BNN layout '${options.layout}'`);
  const file = options.file ?? join(options.weightsDir ?? WEIGHTS_DIR, weightsFileName(layout));
  const w = readWeightsFile(file);
  if (w.layout.id !== layout.id) throw new BnnWeightsError(file, `holds layout ${w.layout.name}, expected ${layout.name}`);
  if (!isComplete(w)) throw new BnnWeightsError(file, 'partial training run: not every square and piece has networks');
  let why = '';
  if (options.engine !== 'ts') {
    const wasmFile = options.wasmFile ?? WASM_FILE;
    const kernel = loadWasmKernel(w, wasmFile);
    if (kernel) return withEngine(kernel.sliders, 'wasm', layout.name, `WebAssembly kernel, ${layout.name}`);
    if (options.requireWasm) throw new Error(`BNN WebAssembly kernel not built (${wasmFile} is missing): run npm run build:wasm`);
    why = `; the WebAssembly kernel ${wasmFile} is missing`;
  }
  return withEngine(referenceSliders(layout, w.weights), 'ts', layout.name, `TypeScript reference, ${layout.name}${why}`);
}

// Both providers' methods are closures (no `this`), so copying them adds no call in between.
function withEngine(s: SliderAttacks, engine: BnnEngine, layout: string, description: string): BnnSliders {
  return { name: s.name, rook: s.rook, bishop: s.bishop, engine, layout, description };
}
